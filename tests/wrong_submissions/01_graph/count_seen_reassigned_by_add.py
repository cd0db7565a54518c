# expect: `in` was asked to look inside None
# seen = seen.add(node) keeps add's None: the second node finds no set to look in.
def count_nodes(y):
    seen, todo = set(), [y.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen = seen.add(node)
        todo.extend(n for n, _ in node.next_functions)
    return len(seen)
