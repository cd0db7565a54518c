# style: recursion instead of a loop, the node's name() method instead of type(node).__name__
def grad_fn_names(y):
    def down(node):
        if node is None:
            return []
        following = [n for n, _ in node.next_functions if n is not None]
        return [node.name()] + (down(following[0]) if following else [])
    return down(y.grad_fn)
