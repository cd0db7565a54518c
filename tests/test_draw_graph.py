"""draw_graph: the right words in the picture, boxes apart, text inside them, big graphs summarised."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

from course.visuals.draw_graph import STYLES, draw_graph  # noqa: E402
from course.visuals.graph_walk import walk_graph  # noqa: E402

OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"}


def all_texts(fig: Figure) -> list[str]:
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]


def node_boxes(fig: Figure) -> list[FancyBboxPatch]:
    (ax,) = fig.axes
    return [p for p in ax.patches if isinstance(p, FancyBboxPatch)]


def course_function():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return torch.log(x ** 2) * torch.sin(x) + 1 / x, x


def wide_graph():
    """42 nodes: ten weights each reaching the output on its own path, one input shared by all."""
    ws = [torch.tensor(float(i), requires_grad=True) for i in range(10)]
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    total = 0
    for i, w in enumerate(ws):
        total = total + (torch.sin(w * x) if i % 2 else torch.exp(w) * x)
    return total.sum(), {f"w{i}": w for i, w in enumerate(ws)} | {"x": x}


def deep_graph():
    """39 nodes: a small network with repeated blocks, so long edges cross several rows."""
    torch.manual_seed(0)
    W1, b1 = torch.randn(4, 3, requires_grad=True), torch.zeros(4, requires_grad=True)
    W2, b2 = torch.randn(2, 4, requires_grad=True), torch.zeros(2, requires_grad=True)
    out = torch.relu(torch.tanh(torch.randn(5, 3) @ W1.T + b1) @ W2.T + b2)
    for _ in range(4):
        out = out * torch.sigmoid(out) + torch.exp(-out).mean()
    return ((out - 1) ** 2).mean(), {"W1": W1, "b1": b1, "W2": W2, "b2": b2}


def test_figure_shows_ops_leaf_value_and_legend():
    f, x = course_function()
    fig = draw_graph(f.sum(), {"x": x}).figure  # a course Picture holds its matplotlib Figure
    assert isinstance(fig, Figure)
    texts = all_texts(fig)
    for label in ["SumBackward0", "AddBackward0", "LogBackward0", "SinBackward0", "PowBackward0",
                  "ReciprocalBackward0", "x"]:
        assert label in texts
    details = "\n".join(texts)
    assert "AccumulateGrad" in details and "value [1, 2, 3]" in details
    assert "grad " not in details  # no backward yet
    assert any("gradient flows" in t for t in texts)
    assert fig._suptitle.get_text() == "Backward graph of the output: shape (), made by SumBackward0"
    assert len(node_boxes(fig)) == len(walk_graph(f.sum()).nodes)
    assert fig.number not in plt.get_fignums()  # closed, so Jupyter shows it only once


def test_gradient_appears_after_backward_and_names_title():
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor([1.5, -0.5], requires_grad=True)
    y = a * b
    z = (y * y + y).sum()
    z.backward()
    fig = draw_graph(z, {"a": a, "b": b, "y": y, "z": z}, title=None).figure
    details = "\n".join(all_texts(fig))
    assert "grad 11" in details  # dz/da = sum((2y + 1) b) = 11
    assert "grad [14, -2]" in details  # dz/db = (2y + 1) a
    assert "y = MulBackward0" in all_texts(fig)
    assert "×2" in all_texts(fig)  # y * y sends gradient to y twice
    assert fig._suptitle.get_text().startswith("Backward graph of z:")
    assert draw_graph(z, title="Mine").figure._suptitle.get_text() == "Mine"


def test_kinds_differ_in_shape_weight_and_okabe_ito_colour():
    f, x = course_function()
    fig = draw_graph(f.sum(), {"x": x}).figure
    styles = {}
    for box in node_boxes(fig):
        colour = matplotlib.colors.to_hex(box.get_edgecolor()).upper()
        assert colour in OKABE_ITO
        styles[colour] = (type(box.get_boxstyle()).__name__, box.get_linewidth())
    assert len(styles) == 3  # output, op, leaf
    assert len(set(styles.values())) == 3  # and each is more than a colour
    assert styles[STYLES["leaf"]["edge"]][0] == "Round"


@pytest.mark.parametrize("make", [wide_graph, deep_graph])
def test_about_forty_nodes_boxes_apart_and_text_inside(make):
    out, names = make()
    n = len(walk_graph(out).nodes)
    assert 35 <= n <= 50
    fig = draw_graph(out, names).figure
    canvas = FigureCanvasAgg(fig)  # a closed figure keeps only a base canvas, which cannot draw
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [b.get_window_extent(renderer) for b in node_boxes(fig)]
    assert len(boxes) == n
    for i, first in enumerate(boxes):
        for second in boxes[i + 1:]:
            assert not first.overlaps(second), (first, second)
    whole = fig.bbox
    assert all(whole.x0 <= b.x0 and b.x1 <= whole.x1 and whole.y0 <= b.y0 and b.y1 <= whole.y1 for b in boxes)
    (ax,) = fig.axes
    for text in ax.texts:
        if text.get_text().startswith("×"):
            continue
        extent = text.get_window_extent(renderer)
        assert any(b.x0 <= extent.x0 and extent.x1 <= b.x1 and b.y0 <= extent.y0 and extent.y1 <= b.y1
                   for b in boxes), text.get_text()
    for other in (fig.legends[0].get_window_extent(renderer), fig._suptitle.get_window_extent(renderer)):
        assert not any(other.overlaps(b) for b in boxes)


def test_more_than_max_nodes_is_summarised_as_counts():
    x = torch.tensor([0.3], requires_grad=True)
    y = x
    for _ in range(20):
        y = torch.sin(y) * x + torch.cos(y)
    n = len(walk_graph(y).nodes)
    assert n == 81  # 20 * (sin, mul, cos, add) and the one leaf
    fig = draw_graph(y, max_nodes=50).figure
    assert node_boxes(fig) == []
    (ax,) = fig.axes
    counts = {label.get_text(): bar.get_width() for label, bar in zip(ax.get_yticklabels(), ax.patches)}
    assert counts == {"SinBackward0": 20, "MulBackward0": 20, "CosBackward0": 20, "AddBackward0": 20,
                      "leaf (AccumulateGrad)": 1}
    assert any("max_nodes=50" in t for t in all_texts(fig))
    assert len(node_boxes(draw_graph(y, max_nodes=100).figure)) == n


def test_no_graph_draws_the_reason():
    fig = draw_graph(torch.ones(3)).figure
    assert fig._suptitle.get_text() == "No autograd graph"
    assert any("requires_grad=True" in t for t in all_texts(fig))
