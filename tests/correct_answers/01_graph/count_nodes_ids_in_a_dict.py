# style: a dict from id(node) to the node (keeping each node alive, so no id is reused during the walk)
def count_nodes(y):
    found, todo = {}, [y.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None and id(node) not in found:
            found[id(node)] = node
            todo += [child for child, _ in node.next_functions]
    return len(found)
