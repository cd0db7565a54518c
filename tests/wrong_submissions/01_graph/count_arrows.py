# expect: you counted the arrows
# Every pair of next_functions that holds a node counted, once per node visited: the arrows of the
# drawing, not its boxes (plus one for the output).
def count_nodes(y):
    seen, todo, arrows = set(), [y.grad_fn], 1
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for n, _ in node.next_functions:
            if n is not None:
                arrows += 1
                todo.append(n)
    return arrows - 1
