# expect: your list holds each name once
# Repeats dropped "to keep the list clean": but sin(sin(x)) has two SinBackward0 nodes, and each is
# a step of the walk.
def grad_fn_names(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return list(dict.fromkeys(names))
