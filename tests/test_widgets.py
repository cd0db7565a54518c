"""The slope explorer and the quick check: callbacks, text fallbacks, and no leaked answers."""
import base64
import json

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from course.visuals.quick_check import quick_check  # noqa: E402
from course.visuals.slope_explorer import slope_explorer  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def cube(x):
    return x ** 3 - 2 * x


def states(widget) -> str:
    """Everything the browser (and a saved notebook) gets about a widget tree, minus model ids."""
    out = []
    for w in [widget, *getattr(widget, "children", ())]:
        state = {k: v for k, v in w.get_state().items() if k not in ("children", "layout", "style")}
        out.append(state)
    return json.dumps(out, sort_keys=True, default=str)


# --- slope explorer -------------------------------------------------------------------------

def test_explorer_starts_in_the_middle_with_the_autograd_slope():
    explorer = slope_explorer(cube, -2, 2)
    assert explorer.slider.value == 0.0
    assert (explorer.slider.min, explorer.slider.max) == (-2.0, 2.0)
    assert "slope f'(x) from autograd = -2" in explorer.slope.value  # 3x^2 - 2 at 0
    assert explorer.image.png.startswith(PNG_MAGIC)


def test_moving_the_slider_recomputes_slope_and_picture():
    explorer = slope_explorer(cube, -2, 2)
    first_png = explorer.image.png
    explorer.slider.value = 1.5
    assert "At x = 1.500: f(x) = 0.375, slope f'(x) from autograd = 4.75" in explorer.slope.value
    assert explorer.image.png.startswith(PNG_MAGIC) and explorer.image.png != first_png
    explorer.slider.value = -1.0
    assert "slope f'(x) from autograd = 1<" in explorer.slope.value  # 3 - 2


def test_the_named_buttons_move_x_a_twentieth_of_the_range_and_stop_at_its_ends():
    explorer = slope_explorer(cube, -2, 2)
    explorer.larger.click()
    assert explorer.slider.value == 0.2 and "At x = 0.200" in explorer.slope.value
    for _ in range(30):
        explorer.smaller.click()
    assert explorer.slider.value == -2.0
    assert [explorer.smaller.description, explorer.larger.description] == ["◀ smaller x", "larger x ▶"]


def test_explorer_bundle_has_widget_static_png_and_fixed_text():
    explorer = slope_explorer(cube, -2, 2, at=1.0)
    bundle, metadata = explorer._repr_mimebundle_()
    assert metadata["image/png"]["alt"].startswith("cube and its derivative, from autograd, for x from -2 to 2.")
    assert bundle[WIDGET_VIEW]["model_id"] == explorer.widget.model_id
    assert base64.b64decode(bundle["image/png"]).startswith(PNG_MAGIC)
    assert bundle["text/plain"].splitlines()[0] == "At x = 1.000: f(x) = -1, slope f'(x) from autograd = 1"
    explorer.slider.value = 0.5  # the fallback records the state the notebook was run in
    assert explorer._repr_mimebundle_()[0]["text/plain"] == bundle["text/plain"]
    # What nbval compares (everything but the widget view and the PNG) is the same on a rerun.
    again, _ = slope_explorer(cube, -2, 2, at=1.0)._repr_mimebundle_()
    assert again[WIDGET_VIEW]["model_id"] != bundle[WIDGET_VIEW]["model_id"]
    assert again["text/plain"] == bundle["text/plain"]


def test_explorer_rejects_functions_autograd_cannot_follow():
    with pytest.raises(ValueError, match="no grad_fn"):
        slope_explorer(lambda x: torch.tensor(x.detach().numpy()), 0, 1)


# --- quick check ----------------------------------------------------------------------------

QUESTION = "After y = x * 3 and y.backward(), what is x.grad?"
OPTIONS = ["None", "tensor(3.)", "tensor(1.)"]
EXPLANATION = "dy/dx = 3, and backward() stores it in x.grad."


def test_right_and_wrong_picks_give_feedback():
    check = quick_check(QUESTION, OPTIONS, 1, EXPLANATION)
    assert check.feedback.value == ""
    check.choices.value = 0
    assert "Not A." in check.feedback.value and EXPLANATION not in check.feedback.value
    check.choices.value = 2
    assert "Not C." in check.feedback.value
    check.choices.value = 1
    assert "Right." in check.feedback.value and "dy/dx = 3" in check.feedback.value
    check.choices.value = None
    assert check.feedback.value == ""


def test_explanation_is_html_escaped():
    check = quick_check("Which?", ["a", "b"], 0, "because x < y & <b>")
    check.choices.value = 0
    assert "because x &lt; y &amp; &lt;b&gt;" in check.feedback.value


def test_text_fallback_shows_question_and_options_only():
    check = quick_check(QUESTION, OPTIONS, 1, EXPLANATION)
    bundle = check._repr_mimebundle_()
    assert bundle[WIDGET_VIEW]["model_id"] == check.widget.model_id
    assert bundle["text/plain"] == repr(check) == "\n".join([
        f"Quick check (not graded): {QUESTION}",
        "  A) None",
        "  B) tensor(3.)",
        "  C) tensor(1.)",
        "(run the notebook in Jupyter to pick an answer and get feedback)",
    ])


def test_nothing_shown_or_synced_depends_on_the_answer_before_a_pick():
    one = quick_check(QUESTION, OPTIONS, 1, EXPLANATION)
    other = quick_check(QUESTION, OPTIONS, 2, "a different explanation")
    assert one._repr_mimebundle_()["text/plain"] == other._repr_mimebundle_()["text/plain"]
    assert states(one.widget) == states(other.widget)
    assert EXPLANATION not in states(one.widget)
    assert isinstance(one.choices, widgets.RadioButtons) and one.choices.index is None


@pytest.mark.parametrize("options, answer", [(["only one"], 0), (["a", "b"], 2), (["a", "b"], -1)])
def test_malformed_questions_are_refused(options, answer):
    with pytest.raises(ValueError):
        quick_check("Q?", options, answer, "E")
