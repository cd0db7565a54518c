# expect: your walk asked a node for a pair it does not have
# Off by one: wants the last pair but indexes len(next_functions), one past it, on a node that has pairs.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while node.next_functions:
        names.append(type(node).__name__)
        node = node.next_functions[len(node.next_functions)][0]
    return names + ["AccumulateGrad"]
