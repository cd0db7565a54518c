# expect: AccumulateGrad is the last node: its next_functions is empty
# The likeliest first walk: it expects a None at the end, but indexes AccumulateGrad's empty next_functions.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0]
    return names
