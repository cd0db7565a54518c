# style: breadth first with a deque, nodes kept in a list and compared by identity
from collections import deque


def count_nodes(y):
    found = []
    queue = deque([y.grad_fn])
    while queue:
        node = queue.popleft()
        if node is None or any(node is seen for seen in found):
            continue
        found.append(node)
        queue.extend(child for child, _ in node.next_functions)
    return len(found)
