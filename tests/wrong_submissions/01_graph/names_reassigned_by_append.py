# expect: leaves None in the variable. Call it on its own line: `names.append(...)`
# names = names.append(...) keeps append's None: a list mistake, not a walk onto a constant's None entry.
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while node is not None:
        names = names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names
