"""The autograd graph as an indented tree, for terminals, logs and text-only notebook outputs.

Nodes are described in the same words here and in `draw_graph`, so a learner can match a
printout with a picture.
"""
import torch

from course.checks.closed_helpers import refuse_if_closed
from course.visuals.graph_walk import Graph, Node, walk_graph

SMALL = 4  # tensors with at most this many elements show their values


def format_values(tensor: torch.Tensor) -> str:
    """Values of a small tensor, compactly; only the shape of a larger one."""
    t = tensor.detach()
    if t.numel() > SMALL:
        return f"{t.numel()} values"
    if t.is_floating_point():
        items = [f"{v:.4g}" for v in t.reshape(-1).tolist()]
    else:
        items = [str(v) for v in t.reshape(-1).tolist()]
    return items[0] if t.dim() == 0 else "[" + ", ".join(items) + "]"


def format_shape(shape: tuple[int, ...] | None) -> str:
    if shape is None:
        return "shape ?"
    return "shape (" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def describe(node: Node) -> list[str]:
    """Title line, then detail lines, as both the tree and the drawing show them."""
    if node.kind == "leaf":
        lines = [node.label, "AccumulateGrad", format_shape(node.shape)]
        if node.tensor is not None and node.tensor.numel() <= SMALL:
            lines.append("value " + format_values(node.tensor))
        if node.tensor is not None and node.tensor.grad is not None:
            lines.append("grad " + format_values(node.tensor.grad))
        return lines
    title = node.label if node.name is None else f"{node.name} = {node.label}"
    return [title, format_shape(node.shape)]


def graph_text(tensor: torch.Tensor, names: dict[str, torch.Tensor] | None = None) -> str:
    """The graph behind `tensor` as a tree from the output down to the leaves."""
    refuse_if_closed("graph_text")
    return render_tree(walk_graph(tensor, names))


def render_tree(graph: Graph) -> str:
    if not graph.nodes:
        return graph.reason
    children = graph.children()
    leaves = sum(1 for n in graph.nodes if n.kind == "leaf")
    lines = [
        f"Backward graph: {_count(len(graph.nodes), 'node')}, {_count(leaves, 'leaf', 'leaves')}. "
        "Gradient flows from each node to the ones indented below it.",
    ]
    shown: set[int] = set()
    # (node id, prefix for this line, prefix for its children); a stack, not recursion, because
    # long chains of operations go deeper than Python's recursion limit.
    stack = [(0, "", "")]
    while stack:
        node_id, prefix, child_prefix = stack.pop()
        node = graph.node(node_id)
        title, *details = describe(node)
        if node_id in shown:
            lines.append(f"{prefix}#{node_id} {title} (shown above)")
            continue
        shown.add(node_id)
        marker = " (output)" if node_id == 0 else ""
        lines.append(f"{prefix}#{node_id} {title}{marker}: " + ", ".join(details))
        kids = children[node_id]
        for position in reversed(range(len(kids))):
            last = position == len(kids) - 1
            stack.append((kids[position], child_prefix + ("└─ " if last else "├─ "),
                          child_prefix + ("   " if last else "│  ")))
    return "\n".join(lines)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"
