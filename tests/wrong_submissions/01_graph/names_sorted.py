# expect: your list holds the right names in alphabetical order
# Every name is there, sorted alphabetically "to compare more easily".
def grad_fn_names(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return sorted(names)
