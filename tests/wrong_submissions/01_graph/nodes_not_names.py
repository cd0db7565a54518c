# expect: holds the nodes themselves
# Walks the chain correctly but collects the node objects instead of their class names.
def grad_fn_names(y):
    nodes = []
    node = y.grad_fn
    while node is not None:
        nodes.append(node)
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[0] if following else None
    return nodes
