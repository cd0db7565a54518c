# expect: Skip those entries and follow the other one
# Always follows next_functions[0]: stops early when a constant is the operation's first input.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names
