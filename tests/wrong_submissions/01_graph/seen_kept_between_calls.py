# expect: it kept state between calls
# A reader's answer: the set of seen nodes lives outside the function, so a second call on the same y
# finds every node already seen and counts 0.
_seen = set()


def count_nodes(y):
    before = len(_seen)
    stack = [y.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in _seen:
            continue
        _seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(_seen) - before
