"""Watch backward() walk a graph one node at a time, with the gradients PyTorch really computed.

``record_backward`` hooks every node of the graph, runs ``output.backward()`` once, and keeps what
the engine did, in the order it did it: the gradient arriving at each node (the sum of what its
parents sent, when several paths meet), what each node sent on along each edge, and the value each
leaf's ``.grad`` held after its AccumulateGrad ran. Nothing is re-derived: every number is one that
PyTorch passed between nodes.

``backward_steps`` shows that as a slider over a drawing of the graph (``draw_graph``'s own
layout, with the step's values written on it). Like ``slope_explorer``, its display bundle also
carries a PNG and a text listing of every step, for headless runs and exported notebooks.
"""
from dataclasses import dataclass, field

import ipywidgets as widgets
import torch
from matplotlib.patches import FancyBboxPatch

from course.checks.closed_helpers import refuse_if_closed
from course.visuals.draw_graph import _attachment_points, describe_graph, drawn_as_boxes, graph_of, layout  # same layout
from course.visuals.draw_graph import draw_picture as draw_graph_picture
from course.visuals.draw_graph import text_alternative as graph_words
from course.visuals.announce import code_line
from course.visuals.drawing import grading, png
from course.visuals.image_view import ImageView
from course.visuals.picture import MAX_TEXT, PictureError, bundle, draw, items, text_alternative
from course.visuals.graph_text import format_values
from course.visuals.graph_walk import Graph, walk_graph

CURRENT = "#CC79A7"  # Okabe-Ito reddish purple: not used by draw_graph's node styles
DONE = "#000000"
WAITING_FADE = 0.72  # how much a node backward() has not reached yet is washed out
DPI = 100


@dataclass
class Step:
    """One node's turn in the backward pass."""

    node: int
    arrived: list  # the gradient(s) w.r.t. the node's output(s), as the engine handed them over
    incoming: list[tuple[int, torch.Tensor]] = field(default_factory=list)  # (from node, gradient sent)
    sent: list[tuple[int, torch.Tensor | None]] = field(default_factory=list)  # (to node, gradient)
    grad_before: torch.Tensor | None = None  # leaves: .grad before this backward()
    grad_after: torch.Tensor | None = None  # leaves: .grad right after AccumulateGrad ran


@dataclass
class Recording:
    graph: Graph
    steps: list[Step]
    names: dict


def _clone(t):
    return None if t is None else t.detach().clone()


def record_backward(output: torch.Tensor, names: dict | None = None, gradient=None,
                    retain_graph: bool = False) -> Recording:
    """Run ``output.backward(gradient)`` with hooks on every node; the steps in the engine's order.

    This is a real backward(): the leaves' ``.grad`` fill (and add up) as usual.
    """
    graph = walk_graph(output, names)
    if not graph.nodes or graph.node(0).kind == "leaf":
        raise ValueError(graph.reason or "this tensor is a leaf: there is no operation for backward() to walk.")
    position = {id(node.grad_fn): node.id for node in graph.nodes}
    steps: dict[int, Step] = {}
    order: list[int] = []
    incoming: dict[int, list] = {node.id: [] for node in graph.nodes}
    handles = []

    for node in graph.nodes:
        targets = [None if fn is None else position[id(fn)] for fn, _ in node.grad_fn.next_functions]

        def arrive(grad_outputs, node_id=node.id):
            order.append(node_id)
            steps[node_id] = Step(node_id, [_clone(g) for g in grad_outputs], list(incoming[node_id]))

        def leave(grad_inputs, grad_outputs, node_id=node.id, targets=targets):
            for target, g in zip(targets, grad_inputs):
                if target is not None:
                    steps[node_id].sent.append((target, _clone(g)))
                    if g is not None:
                        incoming[target].append((node_id, _clone(g)))

        handles.append(node.grad_fn.register_prehook(arrive))
        handles.append(node.grad_fn.register_hook(leave))
        if node.kind == "leaf":
            before = _clone(node.tensor.grad)

            def landed(tensor, node_id=node.id, before=before):
                steps[node_id].grad_before, steps[node_id].grad_after = before, _clone(tensor.grad)

            handles.append(node.tensor.register_post_accumulate_grad_hook(landed))
    try:
        output.backward(gradient=gradient, retain_graph=retain_graph)
    finally:
        for handle in handles:
            handle.remove()
    return Recording(graph, [steps[node_id] for node_id in order], dict(names or {}))


def _name(graph: Graph, node_id: int) -> str:
    node = graph.node(node_id)
    if node.kind == "leaf":
        return node.name or "a leaf"
    return f"{node.name} ({node.label})" if node.name else node.label


def _values(t) -> str:
    return "None" if t is None else format_values(t)


def _arrival(step: Step) -> str:
    """The gradient that arrived, written as the sum of the paths that brought it when there are several."""
    total = ", ".join(_values(g) for g in step.arrived) if len(step.arrived) != 1 else _values(step.arrived[0])
    if len(step.incoming) > 1:
        return " + ".join(_values(g) for _, g in step.incoming) + f" = {total}"
    return total


def describe_step(recording: Recording, index: int) -> str:
    """Step 0 is "before backward()"; step k is the k-th node the engine ran."""
    steps, graph = recording.steps, recording.graph
    if index == 0:
        return (f"Before backward(): {len(steps)} nodes to run, starting from the output "
                f"{_name(graph, steps[0].node)} with gradient {_arrival(steps[0])}.")
    step = steps[index - 1]
    node = graph.node(step.node)
    head = f"Step {index}/{len(steps)}: "
    if node.kind == "leaf":
        before = "None" if step.grad_before is None else _values(step.grad_before)
        return (head + f"AccumulateGrad of {_name(graph, step.node)} receives {_arrival(step)}"
                + (f" ({len(step.incoming)} paths meet)" if len(step.incoming) > 1 else "")
                + f"; {node.name or 'the leaf'}.grad was {before}, is now {_values(step.grad_after)}.")
    where = "starts here with" if index == 1 else "receives"
    meets = f" ({len(step.incoming)} paths meet, so autograd adds them)" if len(step.incoming) > 1 else ""
    sends = "; ".join(f"{_values(g)} to {_name(graph, target)}" for target, g in step.sent) or "nothing on"
    return head + f"{_name(graph, step.node)} {where} gradient {_arrival(step)}{meets}; sends {sends}."


def steps_text(recording: Recording) -> str:
    return "\n".join(describe_step(recording, i) for i in range(len(recording.steps) + 1))


def step_picture(output: torch.Tensor, recording: Recording, index: int, title: str | None = None) -> dict:
    """``draw_graph``'s picture as it was after ``index`` steps, as plain data: leaves' .grad as they
    were then, the nodes reached so far, the node running now, and the gradients each sent."""
    graph = recording.graph
    done = {step.node: step for step in recording.steps[:index]}
    leaves = [node for node in graph.nodes if node.kind == "leaf"]
    final = [node.tensor.grad for node in leaves]
    try:  # draw_graph reads .grad off the leaves: show the value each held at this step
        for node in leaves:
            step = done.get(node.id)
            node.tensor.grad = step.grad_after if step else _step_of(recording, node.id).grad_before
        drawn = describe_graph(output, recording.names,
                               title=title or f"backward(), step {index} of {len(recording.steps)}")
    finally:
        for node, grad in zip(leaves, final):
            node.tensor.grad = grad
    return {"kind": "backward_step", "graph": drawn, "done": list(done),
            "current": recording.steps[index - 1].node if index else None,
            "sent": [[source, target, _values(g)] for source, step in done.items() for target, g in step.sent]}


def _read(description: dict):
    """The description's graph (its description, the graph, each node's lines) and the step's done,
    current and sent, checked."""
    drawn = description.get("graph")
    if not isinstance(drawn, dict):
        raise PictureError("graph must be a graph's description")
    graph, lines = graph_of(drawn)
    done = items(description, "done", len(graph.nodes))
    current = description.get("current")
    sent = items(description, "sent", len(graph.edges))
    if not all(_node_number(n, graph) for n in done) or not (current is None or _node_number(current, graph)):
        raise PictureError("done and current must be node numbers")
    if not all(isinstance(s, list) and len(s) == 3 and _node_number(s[0], graph) and _node_number(s[1], graph)
               and (s[0], s[1]) in graph.edges and isinstance(s[2], str) and len(s[2]) <= MAX_TEXT for s in sent):
        raise PictureError("sent must list [from, to, text] along the graph's edges")
    return drawn, graph, lines, done, current, sent


def text_alternative(description: dict) -> str:
    """What ``draw_picture`` draws, in words: the graph as ``draw_graph`` says it, then which nodes
    backward() has run, the one running now, and the gradient written on each arrow."""
    drawn, graph, lines, done, current, sent = _read(description)
    said = [graph_words(drawn)]
    if not done:
        said.append("backward() has not run any node yet.")
    else:
        ran = ", ".join(f"node {n + 1}" for n in done)
        said.append(f"backward() has run {ran} ({len(done)} of {len(graph.nodes)})"
                    + (f"; node {current + 1} ({lines[current][0]}) runs now." if current is not None else "."))
        said += [f"Gradient from node {source + 1} to node {target + 1}: {value}." for source, target, value in sent]
    return " ".join(said)


def draw_picture(description: dict, dpi: float | None):
    """The figure of ``step_picture``'s data: the graph, then what backward() had done on it."""
    drawn, graph, lines, done, current, sent = _read(description)
    fig = draw_graph_picture(drawn, dpi)
    if drawn_as_boxes(drawn, graph):  # not counted per type: write the step on the boxes
        _annotate(fig.axes[0], graph, lines, set(done), current, sent)
    return fig


def _node_number(value, graph: Graph) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(graph.nodes)


def _annotate(ax, graph: Graph, lines: list[list[str]], done: set, current: int | None, sent: list):
    """Fade what backward() has not reached, outline the node running now, and write on each
    arrow the gradient that went along it (several on one arrow when an input is used twice)."""
    boxes, routes = layout(graph, lines)
    ends = _attachment_points(boxes, routes)
    for node in graph.nodes:
        box = boxes[node.id]
        corner = (box.x - box.w / 2, box.y - box.h / 2)
        if node.id not in done:
            ax.add_patch(FancyBboxPatch(corner, box.w, box.h, boxstyle="square,pad=0.02", fc="white",
                                        ec="none", alpha=WAITING_FADE, zorder=4))
        elif node.id == current:
            ax.add_patch(FancyBboxPatch(corner, box.w, box.h, boxstyle="square,pad=0.06", fc="none",
                                        ec=CURRENT, lw=3.5, zorder=5))
    along: dict[tuple[int, int], list[str]] = {}
    for source, target, value in sent:
        along.setdefault((source, target), []).append(value)
    for (source, target), values in along.items():
        route = routes[(source, target)]
        first, after = boxes[route[0]], boxes[route[1]]
        x0, y0 = ends[(source, target)]["start"], first.y - first.h / 2
        x1 = after.x if len(route) > 2 else ends[(source, target)]["end"]
        y1 = after.y + after.h / 2
        colour = CURRENT if source == current else DONE
        ax.text((x0 + x1) / 2, (y0 + y1) / 2, " + ".join(values), fontsize=8, color=colour,
                ha="center", va="center", zorder=6,
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec=colour, lw=0.8))


def _step_of(recording: Recording, node_id: int) -> Step:
    return next(step for step in recording.steps if step.node == node_id)


class BackwardSteps:
    """A step slider, the step's sentence and the drawing; ``widget`` is what the notebook shows."""

    def __init__(self, output: torch.Tensor, names: dict | None = None, gradient=None, title: str | None = None):
        self.output, self.title = output, title
        self.recording = record_backward(output, names, gradient)
        count = len(self.recording.steps)
        self.slider = widgets.IntSlider(value=0, min=0, max=count, step=1, description="step",
                                        continuous_update=False, layout=widgets.Layout(width="420px"))
        self.back = widgets.Button(description="◀ back", layout=widgets.Layout(width="90px"))
        self.next = widgets.Button(description="next ▶", layout=widgets.Layout(width="90px"))
        self.sentence = widgets.HTML()
        self.image = ImageView(layout=widgets.Layout(max_width="760px"))
        self.widget = widgets.VBox([widgets.HBox([self.slider, self.back, self.next]), self.sentence, self.image])
        self.widget.add_class("backward-steps")
        self._pngs: dict[int, tuple[bytes, str]] = {}  # the slider's pictures and their words, drawn when first shown
        self.slider.observe(lambda change: self._show(change["new"]), names="value")
        self.back.on_click(lambda _: self._move(-1))
        self.next.on_click(lambda _: self._move(+1))
        if grading():  # a graded notebook keeps no widget state: step 0's picture would go unseen
            self.sentence.value = self._sentence(0, now=False)
        else:
            self._show(0, now=False)
        self.final = bundle(self.picture(count), DPI, None if grading() else self.png(count))

    def picture(self, index: int) -> dict:
        return step_picture(self.output, self.recording, index, self._title(index))

    def png(self, index: int) -> bytes:
        return self._drawn(index)[0]

    def _drawn(self, index: int) -> tuple[bytes, str]:
        """Step ``index``'s picture as PNG and in words, drawn when first asked for."""
        if index not in self._pngs:
            described = self.picture(index)
            self._pngs[index] = png(draw(described), DPI), text_alternative(described)
        return self._pngs[index]

    def _title(self, index: int) -> str:
        count = len(self.recording.steps)
        head = self.title + ": " if self.title else ""
        return head + ("before backward()" if index == 0 else f"backward(), step {index} of {count}")

    def text(self) -> str:
        return describe_step(self.recording, self.slider.value)

    def _move(self, by: int):
        self.slider.value = min(max(self.slider.value + by, 0), self.slider.max)

    def _show(self, index: int, now: bool = True):
        # the picture first: when the sentence changes, it is there
        self.image.show(*self._drawn(index))
        self.sentence.value = self._sentence(index, now)

    def _sentence(self, index: int, now: bool = True) -> str:
        """The step in a sentence, read out at once when ``now`` (a step the learner moved to)."""
        return code_line(describe_step(self.recording, index), now)

    def _repr_mimebundle_(self, **kwargs):
        render = self.widget._repr_mimebundle_
        shown = dict(render(**kwargs) or {}) if render else {}
        picture, metadata = self.final
        shown.update(picture)
        shown["text/plain"] = steps_text(self.recording) + "\n(move the slider to step through the drawing)"
        return shown, metadata


def backward_steps(output: torch.Tensor, names: dict | None = None, gradient=None, title: str | None = None):
    """Call ``output.backward()`` and step through it node by node; make it the last line of a cell."""
    refuse_if_closed("backward_steps")
    return BackwardSteps(output, names, gradient, title)
