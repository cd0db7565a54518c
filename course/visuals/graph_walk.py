"""The autograd graph behind a tensor, as plain data that drawings and printouts share.

Autograd records a graph of backward nodes: each tensor made by an operation points at its
`grad_fn`, and each node lists the nodes its gradient flows on to in `next_functions`. The walk
ends at `AccumulateGrad` nodes, one per leaf tensor, which add the gradient into `leaf.grad`.
"""
from collections import deque
from dataclasses import dataclass, field

import torch

from course.checks.closed_helpers import refuse_if_closed


@dataclass(frozen=True)
class Node:
    """One backward node. `id` is its position in a walk from the output, so it is stable."""

    id: int
    kind: str  # "output" (where the walk started), "op", or "leaf" (an AccumulateGrad)
    label: str  # the grad_fn class name, or a leaf's name
    shape: tuple[int, ...] | None  # None when autograd does not record one (multi-output ops)
    tensor: torch.Tensor | None = field(default=None, compare=False, repr=False)  # leaves only
    name: str | None = None  # the name given in `names`, for ops as well as leaves
    grad_fn: object = field(default=None, compare=False, repr=False)  # the autograd node itself


@dataclass(frozen=True)
class Graph:
    """Nodes in walk order (the output first) and edges in the direction gradients flow.

    An edge `(a, b)` says node `a` passes gradient on to node `b`. An edge appears once per
    `next_functions` entry, so `a * a` gives two edges from the multiplication to `a`: both
    contributions add up in `a`'s gradient.
    """

    nodes: list[Node]
    edges: list[tuple[int, int]]
    reason: str = ""  # why the graph is empty, written for the learner

    def node(self, node_id: int) -> Node:
        return self.nodes[node_id]

    def children(self) -> dict[int, list[int]]:
        """Where each node sends gradient, in `next_functions` order (repeats kept)."""
        out: dict[int, list[int]] = {n.id: [] for n in self.nodes}
        for a, b in self.edges:
            out[a].append(b)
        return out


def _shape_of(grad_fn) -> tuple[int, ...] | None:
    # `_input_metadata` is private, so a missing or changed attribute just means "unknown".
    try:
        metadata = grad_fn._input_metadata
    except AttributeError:
        return None
    if len(metadata) != 1:
        return None
    return tuple(int(s) for s in metadata[0].shape)


def _name_of(tensor, names: dict[str, torch.Tensor]) -> str | None:
    # Identity, not equality: two tensors with equal values are still different variables.
    for name, candidate in names.items():
        if candidate is tensor:
            return name
    return None


def _name_of_grad_fn(grad_fn, names: dict[str, torch.Tensor]) -> str | None:
    for name, candidate in names.items():
        if isinstance(candidate, torch.Tensor) and candidate.grad_fn is grad_fn:
            return name
    return None


# Said of a no_grad() result shown on purpose as much as of a forgotten requires_grad=True: it
# says what happened, and what to look for only if a graph was wanted.
NO_GRAPH = (
    "This tensor does not require grad, so autograd recorded no graph for it: it was computed "
    "under torch.no_grad() or inference_mode(), from detached tensors, or from inputs none of "
    "which has requires_grad=True. If you wanted a graph, look for which one."
)


def walk_graph(tensor: torch.Tensor, names: dict[str, torch.Tensor] | None = None) -> Graph:
    """Walk from `tensor.grad_fn` down to the leaves, visiting each shared node once.

    Closed while ``grad_fn_names`` or ``count_nodes`` is checked: it is their answer.
    """
    refuse_if_closed("walk_graph")
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"walk_graph needs a torch.Tensor, got {type(tensor).__name__}")
    names = names or {}
    if tensor.grad_fn is None:
        if not tensor.requires_grad:
            return Graph([], [], reason=NO_GRAPH)
        name = _name_of(tensor, names)
        leaf = Node(0, "leaf", name or "leaf", tuple(tensor.shape), tensor, name)  # no grad_fn yet
        return Graph([leaf], [])

    # Breadth-first and without recursion: graphs of long loops go deeper than Python's stack.
    ids: dict[int, int] = {id(tensor.grad_fn): 0}
    order = [tensor.grad_fn]
    edges: list[tuple[int, int]] = []
    for position, grad_fn in enumerate(order):
        for next_fn, _ in grad_fn.next_functions:
            if next_fn is None:  # an input that does not require grad: no gradient goes there
                continue
            if id(next_fn) not in ids:
                ids[id(next_fn)] = len(order)
                order.append(next_fn)
            edges.append((position, ids[id(next_fn)]))

    nodes = []
    for position, grad_fn in enumerate(order):
        leaf_tensor = getattr(grad_fn, "variable", None)
        if leaf_tensor is not None:
            name = _name_of(leaf_tensor, names)
            nodes.append(Node(position, "leaf", name or "leaf", tuple(leaf_tensor.shape), leaf_tensor, name, grad_fn))
            continue
        kind = "output" if position == 0 else "op"
        shape = tuple(tensor.shape) if position == 0 else _shape_of(grad_fn)
        nodes.append(Node(position, kind, type(grad_fn).__name__, shape, None, _name_of_grad_fn(grad_fn, names), grad_fn))
    return Graph(nodes, edges)


def layers(graph: Graph) -> list[list[int]]:
    """Node ids by depth from the output, leaves all on the last layer.

    Depth is the longest path from the output, so every edge points strictly downwards; leaves
    share the bottom row because that is where a learner looks for the inputs.
    """
    if not graph.nodes:
        return []
    depth = {0: 0}
    children = graph.children()
    # Nodes come in breadth-first order, but a longest path can reach a node after it was first
    # seen, so relax in topological order instead.
    for node_id in _topological_order(graph, children):
        for child in children[node_id]:
            depth[child] = max(depth.get(child, 0), depth[node_id] + 1)
    leaves = [n.id for n in graph.nodes if n.kind == "leaf"]
    if leaves and len(graph.nodes) > 1:
        bottom = max(depth.values())
        for leaf in leaves:
            depth[leaf] = bottom
    rows: list[list[int]] = [[] for _ in range(max(depth.values()) + 1)]
    for node in graph.nodes:
        rows[depth[node.id]].append(node.id)
    return rows


def _topological_order(graph: Graph, children: dict[int, list[int]]) -> list[int]:
    """Every node after all nodes that send gradient to it (Kahn's algorithm)."""
    incoming = {n.id: 0 for n in graph.nodes}
    for _, b in graph.edges:
        incoming[b] += 1
    ready = deque(n.id for n in graph.nodes if incoming[n.id] == 0)
    order = []
    while ready:
        node_id = ready.popleft()
        order.append(node_id)
        for child in children[node_id]:
            incoming[child] -= 1
            if incoming[child] == 0:
                ready.append(child)
    return order
