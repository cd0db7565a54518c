# expect: your list holds 'NoneType', the class of None
# Section 3's cell prints the names of every pair of next_functions: the walk keeps them all, the
# constant's None included, as if each were a node of the chain.
def grad_fn_names(y):
    node = y.grad_fn
    names = [type(node).__name__]
    while node.next_functions:
        names += [type(n).__name__ for n, _ in node.next_functions]
        node = node.next_functions[0][0]
    return names
