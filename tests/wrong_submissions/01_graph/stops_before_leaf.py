# expect: your list stops before AccumulateGrad
# Loops while the node has inputs, so the leaf's AccumulateGrad (no next_functions) is left out.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while node.next_functions:
        names.append(type(node).__name__)
        node = [n for n, _ in node.next_functions if n is not None][0]
    return names
