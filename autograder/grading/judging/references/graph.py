"""Expected values for lesson 1, read off real PyTorch tensors and graphs on the grader's side.

The inputs (data, chains, shared graphs, flag combinations) are rebuilt from the seed by
``course/exercises/graph.py``; what the answers should be is decided only here.
"""
import torch
from torch import nn

from course.checks.observation import Sealed
from course.checks.technique import oracle_leaf
from course.exercises.graph import EXPRESSIONS, flag_table, without


def leaf_from_list(inputs):
    return {"values": [torch.tensor(values, dtype=torch.float64) for values in inputs["cases"]]}


def make_leaf(inputs):
    return {"values": [torch.as_tensor(data, dtype=torch.float64).detach().clone() for data in inputs["cases"]]}


def _chain_names(y) -> list[str]:
    """From y.grad_fn down to AccumulateGrad, following the one input that requires grad."""
    names, node = [], y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


def grad_fn_names(inputs):
    return {"names": [_chain_names(y) for _, y, _ in inputs["chains"]]}


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


def _name_walks(y) -> list[int]:
    """What walks that remember names instead of nodes count: they also stop at a repeated name,
    so the count depends on the order (stack or queue); the number of distinct names too."""
    counts = {len({type(n).__name__ for n in _walk(y).values()})}
    for pop in (lambda todo: todo.pop(), lambda todo: todo.pop(0)):
        names, todo = set(), [y.grad_fn]
        while todo:
            node = pop(todo)
            if node is None or type(node).__name__ in names:
                continue
            names.add(type(node).__name__)
            todo.extend(n for n, _ in node.next_functions)
        counts.add(len(names))
    return sorted(counts)


def _shared_graph_counts(y) -> dict:
    nodes = _walk(y)
    leaves = sum(type(n).__name__ == "AccumulateGrad" for n in nodes.values())
    return {"count": len(nodes), "per_path": _paths(y), "without_leaves": len(nodes) - leaves,
            "by_name": [n for n in _name_walks(y) if n != len(nodes)]}


def count_nodes(inputs):
    return {"graphs": [_shared_graph_counts(y) for y, _ in inputs["graphs"]]}


BUILD = {
    "a * b": lambda a, b: a * b,
    "a.detach()": lambda a, b: a.detach(),
    "a.double()": lambda a, b: a.double(),
    "a + b.detach()": lambda a, b: a + b.detach(),
    "nn.Parameter(b)": lambda a, b: nn.Parameter(b),
}
assert list(BUILD) == EXPRESSIONS


def _flags(a_requires: bool, b_requires: bool) -> dict:
    a = torch.ones(3, requires_grad=a_requires)
    b = torch.ones(3, requires_grad=b_requires)
    return {key: [bool(t.requires_grad), bool(t.is_leaf)] for key, t in ((k, build(a, b)) for k, build in BUILD.items())}


def predict_flags(inputs):
    """The whole table sealed at once, and with each expression (of all cases, or of one) left out."""
    cases = inputs["cases"]
    table = flag_table(cases, [_flags(a, b) for a, b in cases])
    return {"table": Sealed.of(table),
            "one_expression": {key: Sealed.of(without(table, key)) for key in EXPRESSIONS},
            "one_pair": {key: [Sealed.of(without(table, key, i)) for i in range(len(cases))] for key in EXPRESSIONS}}


def f(x: torch.Tensor) -> torch.Tensor:
    """The function the lesson prints: f(x) = log(x^2) sin(x) + 1/x."""
    return torch.log(x**2) * torch.sin(x) + 1 / x


def build_f(inputs):
    x0 = oracle_leaf(inputs["x"])
    y = f(x0)
    (grad,) = torch.autograd.grad(y.sum(), x0)
    return {"f": y.detach(), "grad": grad}
