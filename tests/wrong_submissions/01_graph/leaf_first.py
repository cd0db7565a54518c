# expect: your list is reversed
# Right nodes, but listed from the leaf up to the output, as the forward pass ran.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[0] if following else None
    return names[::-1]
