# style: a generator that yields each node down the chain, the names taken from it with a list comprehension
def grad_fn_names(y):
    def chain(node):
        while node is not None:
            yield node
            node = next((n for n, _ in node.next_functions if n is not None), None)
    return [type(node).__name__ for node in chain(y.grad_fn)]
