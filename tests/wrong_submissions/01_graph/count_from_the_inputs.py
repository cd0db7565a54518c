# expect: y.grad_fn, the node that made y, is a node too
# The walk starts from y.grad_fn's inputs, so the output's own node is never counted.
def count_nodes(y):
    seen, todo = set(), [n for n, _ in y.grad_fn.next_functions]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        todo.extend(n for n, _ in node.next_functions)
    return len(seen)
