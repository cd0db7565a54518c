# expect: the node that made a result y is y.grad_fn
# A reader's answer: starts the walk at y (tensor) instead of y.grad_fn.
def grad_fn_names(y):
    names = []
    node = y
    while True:
        names.append(type(node).__name__)
        if not node.next_functions:
            return names
        node = node.next_functions[0][0]
