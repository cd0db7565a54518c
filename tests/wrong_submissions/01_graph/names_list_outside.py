# expect: gave a different result when it was called again with the same inputs
# The list is made once, outside the function: each call adds its names to those of every call before.
names = []


def grad_fn_names(y):
    node = y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[0] if following else None
    return names
