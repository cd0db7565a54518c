"""count_nodes: each graph's distinct nodes, and what walks that count otherwise would find."""



def _walk(y) -> dict:
    """Every distinct node behind y, by identity."""
    nodes, stack = {}, [y.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in nodes:
            continue
        nodes[id(node)] = node
        stack.extend(n for n, _ in node.next_functions)
    return nodes


def _paths(y) -> int:
    """The count a walk without memory gives: each node once per path from the output."""
    memo = {}

    def count(node):  # memoised, so shared nodes cost one visit; these graphs are a few levels deep
        if id(node) not in memo:
            memo[id(node)] = 1 + sum(count(n) for n, _ in node.next_functions if n is not None)
        return memo[id(node)]
    return count(y.grad_fn)


def _name_walks(y) -> dict:
    """What walks that tell nodes apart by name instead of identity count: the distinct names; the
    distinct names of operations plus one AccumulateGrad per leaf; and walks that stop at a repeated
    name, whose count depends on the order (a stack or a queue)."""
    nodes = _walk(y).values()
    ops = {type(n).__name__ for n in nodes if type(n).__name__ != "AccumulateGrad"}
    counts = {"distinct_names": len({type(n).__name__ for n in nodes}),
              "op_names_plus_leaves": len(ops) + sum(type(n).__name__ == "AccumulateGrad" for n in nodes)}
    for order, pop in (("stack", lambda todo: todo.pop()), ("queue", lambda todo: todo.pop(0))):
        names, todo = set(), [y.grad_fn]
        while todo:
            node = pop(todo)
            if node is None or type(node).__name__ in names:
                continue
            names.add(type(node).__name__)
            todo.extend(n for n, _ in node.next_functions)
        counts[f"name_walk_{order}"] = len(names)
    return counts


def _shared_graph_counts(y) -> dict:
    nodes = _walk(y)
    leaves = sum(type(n).__name__ == "AccumulateGrad" for n in nodes.values())
    arrows = sum(n is not None for node in nodes.values() for n, _ in node.next_functions)
    return {"count": len(nodes), "per_path": _paths(y), "without_leaves": len(nodes) - leaves,
            "by_name": _name_walks(y), "arrows": arrows}


def expected(inputs):
    return {"graphs": [_shared_graph_counts(y) for y, _ in inputs["graphs"]]}
