# expect: your list holds each node's printed form, str(node)
# A reader's answer: str(node) instead of the class name.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while True:
        names.append(str(node))
        if not node.next_functions:
            return names
        node = node.next_functions[0][0]
