"""walk_graph against an independent walk written here, on graphs whose shape we know."""
from collections import Counter

import pytest
import torch

from course.visuals.graph_text import graph_text
from course.visuals.graph_walk import layers, walk_graph


def reference_walk(tensor):
    """Depth-first and recursive, unlike walk_graph: grad_fn objects and edge multiset."""
    seen, edges = [], Counter()

    def visit(fn):
        if any(fn is s for s in seen):
            return
        seen.append(fn)
        for nxt, _ in fn.next_functions:
            if nxt is not None:
                edges[(fn, nxt)] += 1
                visit(nxt)

    visit(tensor.grad_fn)
    return seen, edges


def assert_matches_reference(graph, tensor):
    fns, ref_edges = reference_walk(tensor)
    assert len(graph.nodes) == len(fns)
    by_fn = {id(n.grad_fn): n.id for n in graph.nodes}
    assert set(by_fn) == {id(fn) for fn in fns}
    expected = Counter({(by_fn[id(a)], by_fn[id(b)]): k for (a, b), k in ref_edges.items()})
    assert Counter(graph.edges) == expected
    for node in graph.nodes:
        fn = node.grad_fn
        if hasattr(fn, "variable"):
            assert node.kind == "leaf" and node.tensor is fn.variable
        else:
            assert node.label == type(fn).__name__ and node.tensor is None


def test_chain_is_a_path_from_output_to_leaf():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    z = (torch.sin(torch.exp(x)) * 2).sum()
    graph = walk_graph(z, {"x": x})
    assert_matches_reference(graph, z)
    assert [n.label for n in graph.nodes] == ["SumBackward0", "MulBackward0", "SinBackward0", "ExpBackward0", "x"]
    assert [n.kind for n in graph.nodes] == ["output", "op", "op", "op", "leaf"]
    assert graph.edges == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert graph.node(0).shape == () and graph.node(2).shape == (2,) and graph.node(4).shape == (2,)
    assert layers(graph) == [[0], [1], [2], [3], [4]]


def test_shared_subexpression_appears_once_with_every_use_as_an_edge():
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    a = x * y
    z = a * a + a
    graph = walk_graph(z, {"x": x, "y": y, "a": a})
    assert_matches_reference(graph, z)
    assert len(graph.nodes) == 5  # add, a*a, a, x, y
    (a_node,) = [n for n in graph.nodes if n.name == "a"]
    assert a_node.label == "MulBackward0" and a_node.kind == "op"
    into_a = Counter(src for src, dst in graph.edges if dst == a_node.id)
    assert sorted(into_a.values()) == [1, 2]  # once from the addition, twice from a * a
    assert sorted(n.label for n in graph.nodes if n.kind == "leaf") == ["x", "y"]


def test_detached_branch_and_input_without_grad_are_left_out():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0])  # does not require grad
    z = x * w + x.detach() * 5
    graph = walk_graph(z, {"x": x, "w": w})
    assert_matches_reference(graph, z)
    assert [n.label for n in graph.nodes] == ["AddBackward0", "MulBackward0", "x"]
    assert graph.edges == [(0, 1), (1, 2)]
    assert not any(n.name == "w" for n in graph.nodes)


def test_course_function_has_one_leaf_reached_three_ways():
    x = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float64, requires_grad=True)
    f = torch.log(x ** 2) * torch.sin(x) + 1 / x
    graph = walk_graph(f, {"x": x})
    assert_matches_reference(graph, f)
    (leaf,) = [n for n in graph.nodes if n.kind == "leaf"]
    assert leaf.label == "x" and leaf.tensor is x
    assert sum(1 for _, dst in graph.edges if dst == leaf.id) == 3  # pow, sin, reciprocal
    labels = Counter(n.label for n in graph.nodes)
    assert labels["LogBackward0"] == labels["SinBackward0"] == labels["PowBackward0"] == 1
    assert graph.node(0).kind == "output" and graph.node(0).label == "AddBackward0"


def test_ids_are_stable_between_walks():
    x = torch.randn(3, requires_grad=True)
    z = (x * x + x.exp()).sum()
    first, second = walk_graph(z), walk_graph(z)
    assert first.nodes == second.nodes and first.edges == second.edges


def test_names_match_by_identity_not_value():
    x = torch.tensor([1.0], requires_grad=True)
    twin = torch.tensor([1.0], requires_grad=True)
    graph = walk_graph(x * 2, {"twin": twin})
    assert graph.node(1).label == "leaf" and graph.node(1).name is None
    assert walk_graph(x * 2, {"twin": twin, "x": x}).node(1).label == "x"


def test_leaf_alone_is_one_node_and_no_grad_is_empty_with_reason():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    graph = walk_graph(x, {"x": x})
    assert len(graph.nodes) == 1 and graph.edges == []
    assert graph.node(0).kind == "leaf" and graph.node(0).tensor is x and graph.node(0).label == "x"
    assert layers(graph) == [[0]]

    for tensor in (torch.ones(2), x.detach() * 2):
        empty = walk_graph(tensor)
        assert empty.nodes == [] and empty.edges == []
        assert "requires_grad=True" in empty.reason
    with torch.no_grad():
        shown_on_purpose = walk_graph(x * 2)
    assert shown_on_purpose.nodes == []
    # a lesson shows no_grad() results on purpose: the reason says what happened, not "you erred"
    assert "computed under torch.no_grad()" in shown_on_purpose.reason
    assert "If you wanted a graph" in shown_on_purpose.reason
    with pytest.raises(TypeError, match="torch.Tensor"):
        walk_graph(3.0)


def test_layers_point_every_edge_down_and_put_leaves_last():
    x = torch.tensor(1.0, requires_grad=True)
    w = torch.tensor(2.0, requires_grad=True)
    z = torch.sin(torch.exp(torch.cos(x))) + w  # w is used at the top, x at the bottom
    graph = walk_graph(z)
    rows = layers(graph)
    depth = {node: d for d, row in enumerate(rows) for node in row}
    assert sorted(depth) == [n.id for n in graph.nodes]
    assert all(depth[a] < depth[b] for a, b in graph.edges)
    assert set(rows[-1]) == {n.id for n in graph.nodes if n.kind == "leaf"}


def test_long_chain_needs_no_recursion():
    x = torch.tensor(0.1, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0001
    graph = walk_graph(y)
    assert len(graph.nodes) == 3001 and len(layers(graph)) == 3001
    assert graph_text(y).count("MulBackward0") == 3000


def test_graph_text_prints_shared_nodes_once_and_refers_back():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * x
    z = (a * a + a).sum()
    z.backward()
    text = graph_text(z, {"x": x, "a": a})
    lines = text.splitlines()
    assert lines[0].startswith("Backward graph: 5 nodes, 1 leaf.")
    assert lines[1] == "#0 SumBackward0 (output): shape ()"
    full = [line for line in lines if "a = MulBackward0" in line and "shown above" not in line]
    assert len(full) == 1
    assert sum("a = MulBackward0 (shown above)" in line for line in lines) == 2
    assert sum("x (shown above)" in line for line in lines) == 1
    # x is shown with its value and, after backward, its gradient d(a^2 + a)/dx = 4x^3 + 2x
    assert "x: AccumulateGrad, shape (2,), value [1, 2], grad [6, 36]" in text
    assert graph_text(torch.zeros(1)) == walk_graph(torch.zeros(1)).reason
