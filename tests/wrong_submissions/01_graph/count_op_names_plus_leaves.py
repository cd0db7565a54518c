# expect: the other nodes were told apart by name
# Leaves counted one by one (each has its own AccumulateGrad), the other nodes by their names, as
# "kinds of operation".
def count_nodes(y):
    leaves, names, todo, visited = set(), set(), [y.grad_fn], set()
    while todo:
        node = todo.pop()
        if node is None or node in visited:
            continue
        visited.add(node)
        if type(node).__name__ == "AccumulateGrad":
            leaves.add(node)
        else:
            names.add(type(node).__name__)
        todo.extend(n for n, _ in node.next_functions)
    return len(leaves) + len(names)
