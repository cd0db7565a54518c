# expect: stepped onto a None entry of next_functions
# Always takes next_functions[0], even when it is the (None, 0) of a constant, then asks None for its inputs.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while True:
        names.append(type(node).__name__)
        if not node.next_functions:
            return names
        node = node.next_functions[0][0]
