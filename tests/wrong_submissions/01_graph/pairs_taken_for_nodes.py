# expect: the node is the pair's first item
# A reader's answer: pushes next_functions' (node, index) pairs on the stack and then treats each as a node.
def count_nodes(y):
    stack, seen = [y.grad_fn], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for n in node.next_functions:
            stack.append(n)
    return len(seen)
