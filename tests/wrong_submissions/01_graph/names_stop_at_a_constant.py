# expect: but the graph goes on
# The walk stops at the first node with a None in next_functions, taking it for the end of the chain.
def grad_fn_names(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        if not node.next_functions or any(n is None for n, _ in node.next_functions):
            break
        node = node.next_functions[0][0]
    return names
