# expect: one more than the graph has. Was None counted as a node?
# A reader's answer: follows/counts None entries of next_functions too.
def count_nodes(y):
    seen = set()
    stack = [y.grad_fn]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node is not None:
            for n, _ in node.next_functions:
                stack.append(n)
    return len(seen)
