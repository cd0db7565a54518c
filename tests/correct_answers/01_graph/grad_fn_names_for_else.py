# style: a for loop over a generous bound with a break at AccumulateGrad, its next_functions empty
def grad_fn_names(y):
    names, node = [], y.grad_fn
    for _ in range(10_000):
        names.append(type(node).__name__)
        if len(node.next_functions) == 0:
            break
        node = node.next_functions[0][0]
    return names
