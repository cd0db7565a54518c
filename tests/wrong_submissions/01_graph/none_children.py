# expect: a constant has no backward node: skip the None entries
# Pushes every entry of next_functions, the None of the constant c included, and uses it as a node.
def count_nodes(y):
    seen = set()
    stack = [y.grad_fn]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)
