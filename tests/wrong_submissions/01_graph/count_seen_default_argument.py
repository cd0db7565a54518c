# expect: it kept state between calls
# The set of seen nodes as a default argument: made once, when the function is defined, so a second
# call on the same graph finds every node already seen.
def count_nodes(y, seen=set()):
    todo = [y.grad_fn]
    count = 0
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        count += 1
        todo.extend(n for n, _ in node.next_functions)
    return count
