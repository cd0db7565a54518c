# expect: count the AccumulateGrad nodes too
# Dedupes correctly, but only counts nodes that have inputs, which leaves out AccumulateGrad.
def count_nodes(y):
    seen = set()
    stack = [y.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen or not node.next_functions:
            continue
        seen.add(id(node))
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)
