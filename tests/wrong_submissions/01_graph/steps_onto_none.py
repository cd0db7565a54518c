# expect: a constant has no backward node: follow the pair that holds one
# Always takes the last entry of next_functions, the (None, 0) of a constant included, then asks None for its inputs.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while True:
        names.append(type(node).__name__)
        if not node.next_functions:
            return names
        node = node.next_functions[-1][0]
