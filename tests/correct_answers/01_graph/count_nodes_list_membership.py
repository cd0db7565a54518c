# style: recursion with a list of visited nodes; `in` on a list compares nodes by ==, which for nodes is identity
def count_nodes(y):
    visited = []

    def visit(node):
        if node is None or node in visited:
            return
        visited.append(node)
        for child, _ in node.next_functions:
            visit(child)
    visit(y.grad_fn)
    return len(visited)
