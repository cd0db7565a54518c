# expect: your list holds str(type(node))
# str() of the node's type: "<class 'SumBackward0'>", not the name alone.
def grad_fn_names(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(str(type(node)))
        node = node.next_functions[0][0] if node.next_functions else None
    return names
