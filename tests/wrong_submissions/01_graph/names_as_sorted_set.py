# expect: your list holds each name once
# The names collected in a set, then sorted into a list: the order is lost, and so are repeats.
def grad_fn_names(y):
    names, node = set(), y.grad_fn
    while node is not None:
        names.add(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return sorted(names)
