"""The backward step-through and the expression explorer: real PyTorch values at every step,
pictures that change with the slider, text fallbacks for headless runs, and a parser that
builds expressions without ever running the typed text."""
import base64

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402

from course.visuals.backward_steps import backward_steps, record_backward  # noqa: E402
from course.visuals.expression_graph import (ExpressionError, expression_graph, gradients_of,  # noqa: E402
                                             parse_expression)

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def lesson_graph():
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(4.0, requires_grad=True)
    L = a * b + b**2
    return L, {"a": a, "b": b, "L": L}


# --- record_backward ----------------------------------------------------------------------------

def test_the_recording_is_a_real_backward_in_the_engines_order():
    L, names = lesson_graph()
    recording = record_backward(L, names)
    assert names["a"].grad == 4 and names["b"].grad == 10  # .grad filled as by L.backward()
    kinds = [recording.graph.node(step.node).kind for step in recording.steps]
    assert kinds[0] == "output" and kinds[-2:] == ["leaf", "leaf"]
    assert len(recording.steps) == len(recording.graph.nodes)
    for step in recording.steps[1:]:  # every node's gradient is what its parents sent, summed
        total = sum(g for _, g in step.incoming)
        assert torch.allclose(step.arrived[0], total)


def test_where_two_paths_meet_the_leaf_gets_their_sum():
    L, names = lesson_graph()
    recording = record_backward(L, names)
    b_step = next(s for s in recording.steps if recording.graph.node(s.node).name == "b")
    assert sorted(float(g) for _, g in b_step.incoming) == [2.0, 8.0]  # a from a*b, 2b from b**2
    assert b_step.grad_before is None and float(b_step.grad_after) == 10.0


def test_grad_before_and_after_show_accumulation():
    L, names = lesson_graph()
    names["a"].grad = torch.tensor(100.0)
    recording = record_backward(L, names)
    a_step = next(s for s in recording.steps if recording.graph.node(s.node).name == "a")
    assert float(a_step.grad_before) == 100.0 and float(a_step.grad_after) == 104.0


def test_values_match_autograd_on_tensors():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = torch.tanh(x)
    y = (h**2 * x).sum()
    expected = torch.autograd.grad(y, x, retain_graph=True)[0]
    recording = record_backward(y, {"x": x, "h": h, "y": y})
    assert torch.allclose(recording.steps[-1].grad_after, expected)
    assert torch.allclose(x.grad, expected)


def test_hooks_are_removed_afterwards():
    L, names = lesson_graph()
    record_backward(L, names, retain_graph=True)
    names["a"].grad = None
    L.backward()  # a second, plain backward must not append to any recording
    assert names["a"].grad == 4


def test_a_leaf_or_a_tensor_without_graph_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="does not require grad"):
        record_backward(torch.ones(2).sum())
    with pytest.raises(ValueError, match="leaf"):
        record_backward(torch.ones(1, requires_grad=True))


# --- the widget ---------------------------------------------------------------------------------

def test_the_slider_moves_the_drawing_and_the_sentence():
    L, names = lesson_graph()
    steps = backward_steps(L, names)
    assert steps.slider.value == 0 and steps.slider.max == 5
    first_png, first_text = steps.image.png, steps.sentence.value
    assert first_png.startswith(PNG_MAGIC) and "Before backward()" in first_text
    steps.slider.value = 5
    assert steps.image.png != first_png
    assert "8 + 2 = 10 (2 paths meet); b.grad was None, is now 10." in steps.sentence.value
    steps.next.click()  # already at the end: stays there
    assert steps.slider.value == 5
    steps.back.click()
    assert steps.slider.value == 4 and "a.grad was None, is now 4" in steps.sentence.value


def test_leaves_show_their_grad_only_once_backward_reached_them():
    L, names = lesson_graph()
    steps = backward_steps(L, names)
    assert steps.png(0) != steps.png(5)
    assert names["a"].grad == 4 and names["b"].grad == 10  # drawing put the final .grad back


def test_the_fallback_lists_every_step_and_is_the_same_on_a_rerun():
    L, names = lesson_graph()
    bundle, _ = backward_steps(L, names)._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"]).startswith(PNG_MAGIC)
    lines = bundle["text/plain"].splitlines()
    assert lines[0].startswith("Before backward(): 5 nodes to run")
    assert lines[1] == ("Step 1/5: L (AddBackward0) starts here with gradient 1; "
                        "sends 1 to MulBackward0; 1 to PowBackward0.")
    again, _ = backward_steps(*lesson_graph())._repr_mimebundle_()
    assert again["text/plain"] == bundle["text/plain"]
    assert again[WIDGET_VIEW]["model_id"] != bundle[WIDGET_VIEW]["model_id"]


# --- the expression explorer --------------------------------------------------------------------

def test_an_expression_is_built_with_torch_and_differentiated():
    f, x, y = gradients_of("x * y + sin(x)", 1.0, 2.0)
    assert torch.isclose(f, torch.tensor(2.0 + torch.sin(torch.tensor(1.0)).item(), dtype=torch.float64))
    assert torch.isclose(x.grad, 2.0 + torch.cos(torch.tensor(1.0, dtype=torch.float64)))
    assert float(y.grad) == 1.0
    assert type(f.grad_fn).__name__ == "AddBackward0"
    _, x, y = gradients_of("torch.exp(-x**2)", 0.0, 0.0)
    assert float(x.grad) == 0.0 and y.grad is None


@pytest.mark.parametrize("text, phrase", [
    ("__import__('os').system('true')", "one of the listed functions"),
    ("x.__class__", "only torch functions"),
    ("open(x)", "one of the listed functions"),
    ("torch.load(x)", "one of the listed functions"),
    ("sin(x, y)", "one argument"),
    ("(lambda: 1)()", "one of the listed functions"),
    ("x[0]", "Subscript is not allowed"),
    ("z + 1", "unknown name 'z'"),
    ("x^2", "powers are written **"),
    ("'text'", "not a number"),
    ("1e9 * x", "not a number"),
    ("x" * 201, "longer than"),
    ("x +", "not a valid expression"),
])
def test_anything_outside_the_allowlist_is_refused(text, phrase):
    with pytest.raises(ExpressionError) as refused:
        parse_expression(text)
    assert phrase in str(refused.value)


def test_the_widget_redraws_on_a_new_expression_and_explains_a_bad_one():
    explorer = expression_graph("x * y", 3.0, 2.0)
    first = explorer.image.png
    assert first.startswith(PNG_MAGIC) and "df/dx = x.grad = 2" in explorer.result.value
    explorer.box.value = "x**2"
    assert explorer.image.png != first and "df/dx = x.grad = 6" in explorer.result.value
    assert "y.grad = None (f does not depend on it)" in explorer.result.value
    explorer.box.value = "import os"
    assert "Cannot build f" in explorer.result.value
    explorer.y.value = 5.0  # a later good one works again
    explorer.box.value = "x * y"
    assert "df/dx = x.grad = 5" in explorer.result.value


def test_the_explorer_fallback_is_fixed_text_and_a_png():
    bundle, _ = expression_graph()._repr_mimebundle_()
    assert bundle["text/plain"].splitlines()[0] == "f = 2.841;  df/dx = x.grad = 2.54;  df/dy = y.grad = 1"
    assert base64.b64decode(bundle["image/png"]).startswith(PNG_MAGIC)
