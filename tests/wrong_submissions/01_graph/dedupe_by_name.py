# expect: tell nodes apart by identity
# Remembers nodes by their name, so two MulBackward0 (or two AccumulateGrad) count as one.
def count_nodes(y):
    seen = set()
    stack = [y.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or type(node).__name__ in seen:
            continue
        seen.add(type(node).__name__)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)
