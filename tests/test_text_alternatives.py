"""Every course figure says in words what it shows, from the description it is drawn from, and its colours
carry no meaning alone: each that does has 3:1 contrast on white, and shapes or line styles repeat it."""
import matplotlib

matplotlib.use("Agg")

import torch  # noqa: E402

from autograder.workflow.pages.page_shell import contrast  # noqa: E402
from course.visuals import backward_steps, draw_graph, grad_history_plot, gradient_plot  # noqa: E402
from course.visuals.backward_steps import record_backward, step_picture  # noqa: E402
from course.visuals.draw_graph import describe_graph  # noqa: E402
from course.visuals.gradient_plot import describe_gradient  # noqa: E402
from course.visuals.graph_walk import walk_graph  # noqa: E402
from course.visuals.picture import text_alternative  # noqa: E402


def lesson_graph():
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(4.0, requires_grad=True)
    loss = a * b + b ** 2
    return loss, {"a": a, "b": b, "L": loss}


def test_a_graph_is_said_node_by_node_in_the_walks_order_with_where_each_sends_gradient():
    loss, names = lesson_graph()
    words = text_alternative(describe_graph(loss, names, title="L = a*b + b**2"))
    walk = walk_graph(loss, names)
    assert words.startswith("L = a*b + b**2. ") and "5 nodes, 2 leaves" in words
    said = [words.index(f"Node {n.id + 1}, ") for n in walk.nodes]
    assert said == sorted(said)  # reading order: the walk's, output first
    assert "Node 1, the output, where backward() starts: L = AddBackward0, shape (); sends gradient to node 2 and node 3." in words
    assert "Node 4, a leaf: a, AccumulateGrad, shape (), value 2." in words
    x = torch.tensor(3.0, requires_grad=True)
    assert "sends gradient to node 2 2 times" in text_alternative(describe_graph(x * x, {"x": x}))


def test_a_graph_too_big_to_draw_as_boxes_is_said_as_its_counts():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(60):
        y = y * 1.5
    words = text_alternative(describe_graph(y.sum(), {"x": x}))
    assert "more than max_nodes=50" in words and "MulBackward0: 60" in words


def test_a_gradient_plot_says_its_curves_their_range_and_the_tangent():
    words = text_alternative(describe_gradient(lambda t: t ** 2, -1.0, 3.0, at=1.5))
    assert "for x from -1 to 3" in words and "f(x), between 0 and 9" in words
    assert "where f(x) = 2.25 and the slope is 3" in words and "f'(x) crosses zero near x = " in words


def test_a_grad_history_says_each_call_and_what_grad_held():
    shown = grad_history_plot.plot_grad_history([("backward()", 3.0), ("backward()", 6.0), ("zero_grad()", None)],
                                                one_call=3.0)
    words = text_alternative(shown.description)
    assert "1. backward(): 3" in words and "2. backward(): 6" in words and "3. zero_grad(): None, no tensor" in words
    assert "one backward()'s gradient, 3." in words


def test_a_backward_step_says_the_graph_and_how_far_backward_went():
    loss, names = lesson_graph()
    recording = record_backward(loss, names)
    words = text_alternative(step_picture(loss, recording, 3))
    assert "backward() has run node 1, " in words and "(3 of 5)" in words and " runs now." in words
    assert "Gradient from node 1 to node 2: 1." in words


def test_a_description_that_cannot_be_drawn_says_so():
    assert text_alternative({"kind": "graph", "nodes": "x"}).startswith("A picture that cannot be drawn:")


def test_colours_that_carry_meaning_have_3_to_1_contrast_on_white_and_shapes_repeat_them():
    meaningful = [style["edge"] for style in draw_graph.STYLES.values()] + [
        draw_graph.ARROW, backward_steps.CURRENT, backward_steps.DONE,
        gradient_plot.F_STYLE["color"], gradient_plot.DF_STYLE["color"], gradient_plot.TANGENT_STYLE["color"],
        grad_history_plot.BACKWARD["color"], grad_history_plot.RESET_MARK["markeredgecolor"],
        grad_history_plot.NONE_MARK["color"]]
    assert [c for c in meaningful if contrast(c, "#ffffff") < 3] == []
    assert len({(s["corners"], s["width"]) for s in draw_graph.STYLES.values()}) == len(draw_graph.STYLES)
    assert len({s["linestyle"] for s in (gradient_plot.F_STYLE, gradient_plot.DF_STYLE, gradient_plot.TANGENT_STYLE)}) == 3
    assert grad_history_plot.RESET_MARK["marker"] != grad_history_plot.NONE_MARK["marker"]
