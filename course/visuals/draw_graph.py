"""A picture of the autograd graph: the output on top, leaves at the bottom, gradient flowing down.

The layout is a small layered (Sugiyama-style) one: rows by depth, long edges routed through
gaps reserved in the rows they cross, a few barycentre sweeps against crossings. Sizes are in
inches and the axes span the whole figure, so a box is measured once and fits its text.
"""
import textwrap
from collections import Counter, defaultdict
from dataclasses import dataclass

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch
from matplotlib.path import Path
from matplotlib.textpath import TextToPath

from course.checks.closed_helpers import refuse_if_closed
from course.visuals.graph_text import describe, format_shape
from course.visuals.graph_walk import Graph, Node, layers, walk_graph
from course.visuals.picture import MAX_TEXT, PictureError, integer, items, show, text

# Okabe-Ito: distinguishable with the common colour-vision deficiencies. Shape and border weight
# repeat what colour says, so greyscale prints still work.
STYLES = {
    "output": dict(edge="#D55E00", fill="#FBE3C8", corners="square", width=3.0, legend="output: backward() starts here"),
    "op": dict(edge="#0072B2", fill="#D6ECF8", corners="square", width=1.2, legend="operation (grad_fn)"),
    "leaf": dict(edge="#009E73", fill="#D2F0E6", corners="round", width=2.0, legend="leaf: AccumulateGrad fills .grad"),
}
KIND_WORDS = {"output": "the output, where backward() starts", "op": "an operation", "leaf": "a leaf"}
ARROW = "#444444"
TITLE_PT, DETAIL_PT = 10, 8.5
LINE = 1.35 / 72  # inches per point of font size, with line spacing
PAD, GAP_X, GAP_Y, DUMMY_W = 0.1, 0.3, 0.55, 0.12
MARGIN, TOP, BOTTOM = 0.25, 0.6, 0.55  # room for the title above and the legend below
MAX_DRAWN, MAX_ARROWS = 100, 150  # nodes and distinct edges drawn as boxes and arrows at most, whatever
# max_nodes says (the layout's work grows with their product); a bigger graph is counted per type
MAX_NODES, MAX_EDGES, MAX_LINES = 20_000, 60_000, 12  # what one description may hold


def draw_graph(tensor, names=None, title=None, max_nodes=50):
    """Draw the graph behind `tensor`; too many nodes give counts per node type instead."""
    refuse_if_closed("draw_graph")
    return show(describe_graph(tensor, names, title, max_nodes))


def describe_graph(tensor, names=None, title=None, max_nodes=50) -> dict:
    """What ``draw_graph`` draws, as plain data: each node's kind, label and lines of text, the edges."""
    graph = walk_graph(tensor, names)
    return {"kind": "graph", "title": title or _default_title(graph), "reason": graph.reason,
            "max_nodes": int(max_nodes), "edges": [list(edge) for edge in graph.edges],
            "nodes": [{"kind": n.kind, "label": n.label, "lines": describe(n)} for n in graph.nodes]}


def draw_picture(description: dict, dpi: float | None) -> Figure:
    """The figure of ``describe_graph``'s data: the graph, a message when it is empty, or counts per
    node type when it has more than ``max_nodes`` nodes."""
    graph, lines = graph_of(description)
    title = text(description, "title")
    if not graph.nodes:
        return _message_figure(title, text(description, "reason"), dpi)
    if not drawn_as_boxes(description, graph):
        return _summary_figure(graph, title, _why_counted(description, graph), dpi)
    return _graph_figure(graph, lines, title, dpi)


def text_alternative(description: dict) -> str:
    """What ``draw_picture`` draws, in words: the title, then each node in the walk's order (the
    output first) with its text and the nodes it sends gradient to; or the message, or the counts."""
    graph, lines = graph_of(description)
    title = text(description, "title")
    if not graph.nodes:
        return f"{title}. {text(description, 'reason')}"
    if not drawn_as_boxes(description, graph):
        counts = "; ".join(f"{label}: {count}" for label, count in _counts_per_type(graph))
        return f"{title}. {_why_counted(description, graph)}, so a bar chart counts the nodes per type: {counts}."
    leaves = sum(1 for node in graph.nodes if node.kind == "leaf")
    said = [f"{title}. Autograd's backward graph, the output at the top, the leaves at the bottom: "
            f"{len(graph.nodes)} node{'s' * (len(graph.nodes) != 1)}, {leaves} lea{'ves' if leaves != 1 else 'f'}; "
            "arrows carry the gradient down from each node to the nodes it sends to."]
    children = graph.children()
    for node in graph.nodes:
        sends = Counter(children[node.id])
        to = _listed([f"node {child + 1}" + (f" {times} times" if times > 1 else "") for child, times in sends.items()])
        said.append(f"Node {node.id + 1}, {KIND_WORDS[node.kind]}: {', '.join(lines[node.id])}"
                    + (f"; sends gradient to {to}." if to else "."))
    return " ".join(said)


def _listed(words: list[str]) -> str:
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def _why_counted(description: dict, graph: Graph) -> str:
    most = _most_boxes(description)
    return (f"{len(graph.nodes)} nodes is more than max_nodes={most}" if len(graph.nodes) > most else
            f"{len(set(graph.edges))} arrows are more than {MAX_ARROWS} can be drawn")


def drawn_as_boxes(description: dict, graph: Graph) -> bool:
    """Whether the picture shows each node as a box (not a message, nor counts per type)."""
    return 0 < len(graph.nodes) <= _most_boxes(description) and len(set(graph.edges)) <= MAX_ARROWS


def _most_boxes(description: dict) -> int:
    return min(integer(description, "max_nodes", 0, 10**9), MAX_DRAWN)


def graph_of(description: dict) -> tuple[Graph, list[list[str]]]:
    """The graph a description holds, and each node's lines, checked: a graph walked from its output
    (node 0), every node reached from it, no cycle."""
    nodes = items(description, "nodes", MAX_NODES)
    edges = items(description, "edges", MAX_EDGES)
    built, lines = [], []
    for i, node in enumerate(nodes):
        if not isinstance(node, dict) or node.get("kind") not in STYLES:
            raise PictureError(f"node {i} must have a kind among {sorted(STYLES)}")
        said = items(node, "lines", MAX_LINES)
        if not said or not all(isinstance(line, str) and len(line) <= MAX_TEXT for line in said):
            raise PictureError(f"node {i} must have 1 to {MAX_LINES} lines of text")
        built.append(Node(i, node["kind"], text(node, "label"), None))
        lines.append(said)
    pairs = []
    for edge in edges:
        if not (isinstance(edge, list) and len(edge) == 2
                and all(isinstance(e, int) and not isinstance(e, bool) and 0 <= e < len(built) for e in edge)):
            raise PictureError("an edge must be a pair of node numbers")
        pairs.append(tuple(edge))
    graph = Graph(built, pairs)
    if built and not _walked(graph):
        raise PictureError("the graph must be one walk from node 0, without a cycle")
    return graph, lines


def _walked(graph: Graph) -> bool:
    """Every node reached from node 0, and a topological order of them all (no cycle)."""
    children = graph.children()
    seen, todo = {0}, [0]
    while todo:
        for child in children[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    incoming = Counter(b for _, b in graph.edges)
    ready = [n.id for n in graph.nodes if not incoming[n.id]]
    ordered = 0
    while ready:
        node = ready.pop()
        ordered += 1
        for child in children[node]:
            incoming[child] -= 1
            if not incoming[child]:
                ready.append(child)
    return len(seen) == ordered == len(graph.nodes)


def _default_title(graph: Graph) -> str:
    if not graph.nodes:
        return "No autograd graph"
    out = graph.node(0)
    who = out.name or "the output"
    made = "a leaf" if out.kind == "leaf" else f"made by {out.label}"
    return f"Backward graph of {who}: {format_shape(out.shape)}, {made}"


@dataclass
class Box:
    x: float  # centre, inches
    y: float
    w: float
    h: float


_FONT = TextToPath()


def _text_width(text: str, points: float, bold: bool = False) -> float:
    """Inches: the font's own advance width. Building the glyphs' paths to measure them took 40x
    longer, and a lesson with graphs spent most of its time there."""
    prop = FontProperties(weight="bold" if bold else "normal", size=points)
    return _FONT.get_text_width_height_descent(text, prop, ismath=False)[0] / 72


def _box_size(lines: list[str]) -> tuple[float, float]:
    title, *details = lines
    w = max([_text_width(title, TITLE_PT, bold=True)] + [_text_width(d, DETAIL_PT) for d in details])
    h = TITLE_PT * LINE + len(details) * DETAIL_PT * LINE
    return w + 2 * PAD, h + 2 * PAD


def layout(graph: Graph, lines: list[list[str]]) -> tuple[dict, dict]:
    """Boxes for nodes (and for the gaps long edges pass through) and each edge's route.

    Returns `boxes` keyed by node id (gap keys are tuples) and `routes` keyed by the distinct
    edge `(a, b)`, a list of keys from `a` to `b` through its gaps.
    """
    order = [list(row) for row in layers(graph)]
    routes, above, below = _route_long_edges(graph, order)
    _order_rows(order, above, below)
    size = {k: (DUMMY_W, 0.0) if isinstance(k, tuple) else _box_size(lines[k])
            for row in order for k in row}
    x = _place_across(order, above, below, size)

    heights = [max([size[k][1] for k in row] + [0.3]) for row in order]
    boxes, top = {}, 0.0
    for d, row in enumerate(order):
        for k in row:  # a gap is as tall as its row, so an edge passes it vertically
            boxes[k] = Box(x[k], top - heights[d] / 2, size[k][0], size[k][1] or heights[d])
        top -= heights[d] + GAP_Y
    left = min(b.x - b.w / 2 for b in boxes.values())
    bottom = min(b.y - b.h / 2 for b in boxes.values())
    for b in boxes.values():  # origin at the lower left corner of the drawing
        b.x, b.y = b.x - left, b.y - bottom
    return boxes, routes


def _route_long_edges(graph: Graph, order: list[list]):
    """An edge crossing rows gets a gap in each, so no box can sit in its way."""
    depth = {key: d for d, row in enumerate(order) for key in row}
    above, below, routes = defaultdict(list), defaultdict(list), {}
    for a, b in dict.fromkeys(graph.edges):  # repeated edges are drawn once, labelled ×n
        gaps = [("gap", a, b, d) for d in range(depth[a] + 1, depth[b])]
        for gap in gaps:
            order[gap[3]].append(gap)
        route = [a, *gaps, b]
        for u, v in zip(route, route[1:]):
            below[u].append(v)
            above[v].append(u)
        routes[(a, b)] = route
    return routes, above, below


def _order_rows(order: list[list], above: dict, below: dict, sweeps: int = 4):
    """Barycentre sweeps: sort each row by the mean position of its neighbours in the row before.
    Fewer crossings, not necessarily none."""
    for _ in range(sweeps):
        for rows, neighbours, step in ((range(1, len(order)), above, -1),
                                       (range(len(order) - 2, -1, -1), below, 1)):
            for d in rows:
                position = {k: i for i, k in enumerate(order[d + step])}
                current = {k: i for i, k in enumerate(order[d])}

                def centre(k):
                    near = [position[n] for n in neighbours[k]]
                    return sum(near) / len(near) if near else current[k]
                order[d].sort(key=centre)


def _place_across(order: list[list], above: dict, below: dict, size: dict, sweeps: int = 6) -> dict:
    """Horizontal centres: each box pulled over the boxes it connects to, rows kept in order."""
    x = {}
    for row in order:
        left = 0.0
        for k in row:
            x[k] = left + size[k][0] / 2
            left += size[k][0] + GAP_X
    for _ in range(sweeps):
        for rows, neighbours in ((range(1, len(order)), above), (range(len(order) - 2, -1, -1), below)):
            for d in rows:
                want = {k: sum(x[n] for n in neighbours[k]) / len(neighbours[k]) if neighbours[k] else x[k]
                        for k in order[d]}
                x.update(_spread(order[d], want, size))
    return x


def _spread(row: list, want: dict, size: dict) -> dict:
    """Positions closest to `want` with boxes apart, keeping order: the mean of a left-to-right
    and a right-to-left pass, both of which respect every gap, so their mean does too."""
    gap = [(size[a][0] + size[b][0]) / 2 + GAP_X for a, b in zip(row, row[1:])]
    rightward = [want[row[0]]]
    for i in range(1, len(row)):
        rightward.append(max(want[row[i]], rightward[-1] + gap[i - 1]))
    leftward = [want[row[-1]]]
    for i in range(len(row) - 2, -1, -1):
        leftward.insert(0, min(want[row[i]], leftward[0] - gap[i]))
    return {k: (r + l) / 2 for k, r, l in zip(row, rightward, leftward)}


def _graph_figure(graph: Graph, lines: list[list[str]], title: str, dpi: float | None) -> Figure:
    boxes, routes = layout(graph, lines)
    width = max(max(b.x + b.w / 2 for b in boxes.values()) + 2 * MARGIN, 6.0)
    height = max(b.y + b.h / 2 for b in boxes.values()) + TOP + BOTTOM
    shift = (width - max(b.x + b.w / 2 for b in boxes.values())) / 2
    fig = plt.figure(figsize=(width, height), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-shift, width - shift)
    ax.set_ylim(-BOTTOM, height - BOTTOM)
    ax.axis("off")
    counts = Counter(graph.edges)
    ends = _attachment_points(boxes, routes)
    for (a, b), route in routes.items():
        _draw_edge(ax, boxes, route, ends[(a, b)], counts[(a, b)])
    for node in graph.nodes:
        _draw_node(ax, boxes[node.id], node.kind, lines[node.id])
    fig.suptitle(title, y=1 - 0.15 / height, va="top", fontsize=12)
    _legend(fig)
    return fig


def _attachment_points(boxes, routes) -> dict:
    """Where each edge leaves its source and enters its target: spread along the box edge in the
    order of the other end, so several arrows into one box do not share a single point."""
    leaving, entering = defaultdict(list), defaultdict(list)
    for edge, route in routes.items():
        leaving[route[0]].append((boxes[route[1]].x, edge))
        entering[route[-1]].append((boxes[route[-2]].x, edge))
    ends = defaultdict(dict)
    for side, groups in (("start", leaving), ("end", entering)):
        for key, items in groups.items():
            box = boxes[key]
            items.sort(key=lambda item: item[0])
            for i, (_, edge) in enumerate(items):
                offset = (i + 1) / (len(items) + 1) - 0.5
                ends[edge][side] = box.x + offset * box.w * 0.6
    return ends


def _draw_edge(ax, boxes, route, ends, count):
    first, last = boxes[route[0]], boxes[route[-1]]
    points = [(ends["start"], first.y - first.h / 2)]
    for gap in route[1:-1]:  # pass vertically through the space reserved in each row crossed
        box = boxes[gap]
        points += [(box.x, box.y + box.h / 2), (box.x, box.y - box.h / 2)]
    points.append((ends["end"], last.y + last.h / 2))
    arrow = FancyArrowPatch(path=Path(points), arrowstyle="-|>", mutation_scale=14,
                            color=ARROW, linewidth=1.3, shrinkA=0, shrinkB=0, zorder=1)
    ax.add_patch(arrow)
    if count > 1:
        (x0, y0), (x1, y1) = points[0], points[1]
        ax.text((x0 + x1) / 2, (y0 + y1) / 2, f"×{count}", fontsize=DETAIL_PT, color=ARROW,
                ha="center", va="center", zorder=3,
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec=ARROW, lw=0.6))


def _draw_node(ax, box: Box, kind: str, lines: list[str]):
    style = STYLES[kind]
    corners = "round,pad=0,rounding_size=0.12" if style["corners"] == "round" else "square,pad=0"
    ax.add_patch(FancyBboxPatch((box.x - box.w / 2, box.y - box.h / 2), box.w, box.h, boxstyle=corners,
                                fc=style["fill"], ec=style["edge"], lw=style["width"], zorder=2))
    title, *details = lines
    top = box.y + box.h / 2 - PAD
    ax.text(box.x, top, title, ha="center", va="top", fontsize=TITLE_PT, fontweight="bold", zorder=3)
    if details:
        ax.text(box.x, top - TITLE_PT * LINE, "\n".join(details), ha="center", va="top",
                fontsize=DETAIL_PT, linespacing=1.3, zorder=3)


def _legend(fig: Figure):
    handles = [Patch(fc=s["fill"], ec=s["edge"], lw=s["width"], label=s["legend"]) for s in STYLES.values()]
    handles.append(Line2D([], [], color=ARROW, marker=">", markersize=6, lw=1.3,
                          label="arrow: gradient flows this way (backward)"))
    fig.legend(handles=handles, loc="lower center", ncol=2, fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 0.0), columnspacing=1.5, handlelength=1.6)


def _message_figure(title: str, message: str, dpi: float | None) -> Figure:
    fig = plt.figure(figsize=(6, 1.8), dpi=dpi)
    fig.add_subplot().axis("off")  # a figure without axes is not rendered inline at all
    fig.suptitle(title, fontsize=12)
    fig.text(0.5, 0.45, textwrap.fill(message, 80), ha="center", va="center", fontsize=10)
    return fig


def _counts_per_type(graph: Graph, shown: int = 15) -> list[tuple[str, int]]:
    """Nodes per type, the most frequent first; past ``shown`` types, the rest as one entry."""
    kinds = Counter("leaf (AccumulateGrad)" if n.kind == "leaf" else n.label for n in graph.nodes)
    top = kinds.most_common(shown)
    rest = sum(kinds.values()) - sum(c for _, c in top)
    if rest:
        top.append((f"{len(kinds) - shown} other types", rest))
    return top


def _summary_figure(graph: Graph, title: str, why: str, dpi: float | None) -> Figure:
    """Counts per node type: a hairball of hundreds of boxes teaches nothing."""
    top = _counts_per_type(graph)
    labels, counts = [k for k, _ in reversed(top)], [c for _, c in reversed(top)]
    fig = plt.figure(figsize=(7, 1.6 + 0.3 * len(labels)), dpi=dpi)
    ax = fig.add_subplot()
    bars = ax.barh(labels, counts, color=STYLES["op"]["edge"])
    for bar, label in zip(bars, labels):
        if label.startswith("leaf"):  # hatched, so it differs by more than colour
            bar.set(facecolor=STYLES["leaf"]["edge"], edgecolor="white", hatch="//")
    ax.bar_label(bars, padding=3, fontsize=8)
    ax.set_xlim(0, max(counts) * 1.12)
    ax.set_xlabel("number of nodes")
    ax.set_title(f"{why}, so: nodes per type.\n"
                 "graph_text() lists them all; draw_graph(..., max_nodes=...) draws them.", fontsize=9)
    fig.suptitle(title, fontsize=12)
    fig.tight_layout()
    return fig
