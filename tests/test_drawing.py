"""A grading kernel describes every course figure and the grader draws it, with fewer pixels; a student's
kernel draws as before. (tests/test_outputs_kept.py checks the same in kernels the grader started.)"""
import base64
import html
import io
import json

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.layout_engine import PlaceHolderLayoutEngine  # noqa: E402
from PIL import Image  # noqa: E402

from autograder.grading.kernels.fence import KERNEL_ENVIRONMENT  # noqa: E402
from course.visuals import drawing  # noqa: E402
from course.visuals.backward_steps import backward_steps  # noqa: E402
from course.visuals import picture  # noqa: E402
from course.visuals.draw_graph import describe_graph, draw_graph  # noqa: E402
from course.visuals.expression_graph import expression_graph  # noqa: E402
from course.visuals.grad_history_plot import plot_grad_history  # noqa: E402
from course.visuals.gradient_plot import plot_gradient  # noqa: E402
from course.visuals.slope_explorer import slope_explorer  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def grading(monkeypatch):
    monkeypatch.setenv(drawing.KERNEL_VARIABLE, drawing.GRADING)


@pytest.fixture
def lesson(monkeypatch):
    monkeypatch.delenv(drawing.KERNEL_VARIABLE, raising=False)


def graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    return y, {"x": x, "y": y}


def figures():
    y, names = graph()
    return [draw_graph(y, names), draw_graph(torch.zeros(2)), plot_gradient(torch.sin, -1, 1),
            plot_grad_history([("backward()", 2.0), ("zero_grad()", None)])]


def dpi_of(png: bytes) -> float:
    """The pixels per inch matplotlib wrote into the PNG (its pHYs chunk)."""
    return Image.open(io.BytesIO(png)).info["dpi"][0]


def width_of(png: bytes) -> int:
    return Image.open(io.BytesIO(png)).size[0]


def test_the_grader_marks_every_kernel_it_starts_as_the_course_looks_for():
    assert KERNEL_ENVIRONMENT[drawing.KERNEL_VARIABLE] == drawing.GRADING


def test_a_grading_kernel_describes_course_figures_as_plain_json_and_draws_none(grading):
    for made in figures():
        shown, metadata = made._repr_mimebundle_()
        assert set(shown) == {picture.PICTURE_MIME, "text/plain"} and shown["text/plain"] == picture.PLACEHOLDER
        assert metadata == {"image/png": {"alt": picture.text_alternative(made.description)}}
        json.dumps([shown, metadata], allow_nan=False)  # what a kernel's session sends: strict JSON, NaN packed
    assert matplotlib.pyplot.get_fignums() == []


def test_the_grader_draws_each_description_as_the_lesson_does_the_same_size_in_inches_at_the_grading_dpi(monkeypatch):
    monkeypatch.delenv(drawing.KERNEL_VARIABLE, raising=False)
    lesson = [(fig.get_size_inches(), repr(fig)) for fig in figures()]
    monkeypatch.setenv(drawing.KERNEL_VARIABLE, drawing.GRADING)
    for (inches, text), made in zip(lesson, figures()):
        png, graded_text = picture.grading_png(made.description)
        assert dpi_of(png) == pytest.approx(drawing.GRADING_DPI, abs=0.1)
        assert width_of(png) == pytest.approx(inches[0] * drawing.GRADING_DPI, abs=2)
        assert graded_text.split(" with ")[1] == text.split(" with ")[1]  # the same axes


def test_the_grader_draws_a_laid_out_figure_once_the_same_pixels_as_with_matplotlibs_unseen_second_pass(grading, monkeypatch):
    """``tight_layout`` (the gradient and history plots) leaves a layout engine behind, for which
    ``savefig`` draws the figure twice; dropped, it is drawn once, and the PNG does not change."""
    drawn, draw = [], matplotlib.figure.Figure.draw
    monkeypatch.setattr(matplotlib.figure.Figure, "draw", lambda fig, renderer: drawn.append(fig) or draw(fig, renderer))
    for made in figures():
        drawn.clear()
        png, _ = picture.grading_png(made.description)
        assert len(drawn) == 1
        fig = picture.draw(made.description, drawing.GRADING_DPI)
        fig.set_layout_engine(PlaceHolderLayoutEngine(True, True))  # as tight_layout leaves it
        drawn.clear()
        again = io.BytesIO()
        fig.savefig(again, format="png", dpi=drawing.GRADING_DPI, pil_kwargs=drawing.GRADING_PNG)
        assert len(drawn) == 2 and again.getvalue() == png


def test_ipython_shows_a_described_figure_without_drawing_it(grading):
    """The last value of a cell, or ``display``: IPython's formatters probe private names first."""
    from IPython.core.formatters import DisplayFormatter
    for made in figures():
        data, _ = DisplayFormatter().format(made)
        assert set(data) == {picture.PICTURE_MIME, "text/plain"} and data["text/plain"] == picture.PLACEHOLDER
        assert made._figure is None  # never drawn in the kernel


def test_a_described_figure_still_works_as_a_figure_where_code_uses_it(grading):
    made = figures()[0]
    assert repr([made]) == "[<Figure>]"
    assert len(made.axes) == 1 and made.dpi == drawing.GRADING_DPI


def test_a_students_kernel_draws_them_as_matplotlib_does(lesson):
    for fig in figures():
        assert fig.dpi == matplotlib.rcParams["figure.dpi"] != drawing.GRADING_DPI
    assert drawing.figure_dpi() is None


def test_a_students_kernel_shows_a_figure_with_its_text_alternative(lesson):
    """JupyterLab gives an image/png no alt: the same PNG in an <img> with its alt comes first (text/html);
    nbconvert's pages read the alt of the PNG's metadata."""
    for made in figures():
        shown, metadata = made._repr_mimebundle_()
        words = picture.text_alternative(made.description)
        assert set(shown) == {"image/png", "text/html", "text/plain"} and shown["text/plain"] == words
        assert shown["text/html"] == picture.image_html(shown["image/png"], words)
        assert f'alt="{html.escape(words)}"' in shown["text/html"]
        assert metadata == {"image/png": {"alt": words}}
        assert base64.b64decode(shown["image/png"]).startswith(b"\x89PNG")


def test_the_png_helper_caps_its_dpi_while_grading_and_closes_the_figure(lesson, monkeypatch):
    y, names = graph()
    assert dpi_of(drawing.png(draw_graph(y, names), 100)) == pytest.approx(100, abs=0.1)
    monkeypatch.setenv(drawing.KERNEL_VARIABLE, drawing.GRADING)
    fig = picture.draw(describe_graph(y, names))
    assert dpi_of(drawing.png(fig, 100)) == pytest.approx(drawing.GRADING_DPI, abs=0.1)
    assert dpi_of(drawing.png(picture.draw(describe_graph(y, names)), 50)) == pytest.approx(50, abs=0.1)
    assert not matplotlib.pyplot.fignum_exists(fig.number)


def widgets():
    y, names = graph()
    return [slope_explorer(torch.sin, -1, 1), expression_graph("x * y"), backward_steps(y, names)]


def test_a_grading_kernel_leaves_widgets_pictures_undrawn_and_describes_one_picture_each(grading):
    for made in widgets():
        assert made.image.png == b"" and made.image.value == ""  # no one opens a widget in a graded notebook
        shown, _ = made._repr_mimebundle_()
        assert WIDGET_VIEW in shown and "image/png" not in shown
        png, _ = picture.grading_png(shown[picture.PICTURE_MIME])
        assert dpi_of(png) == pytest.approx(drawing.GRADING_DPI, abs=0.1)


def test_a_widget_used_while_grading_draws_its_picture(grading):
    explorer, typed, steps = widgets()
    explorer.slider.value = 0.5
    typed.box.value = "x + y"
    steps.slider.value = 1
    for made in (explorer, typed, steps):
        assert dpi_of(made.image.png) == pytest.approx(drawing.GRADING_DPI, abs=0.1)


def test_a_students_widgets_show_their_picture_at_once(lesson):
    explorer, typed, steps = widgets()
    for made, dpi in ((explorer, 80), (typed, 100)):
        assert base64.b64encode(made.image.png).decode() == made.initial[0]["image/png"]
        assert made.initial[0]["image/png"] in made.image.value and 'alt="' in made.image.value
        assert dpi_of(made.image.png) == pytest.approx(dpi, abs=0.1)
    assert dpi_of(steps.image.png) == pytest.approx(100, abs=0.1)


SHELL_DRAWS = """
import io, json
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_cell("import torch\\nfrom course.visuals.draw_graph import draw_graph\\n"
               "x = torch.tensor([1.0, 2.0], requires_grad=True)\\nfig = draw_graph((x * x).sum(), {'x': x})")
print(json.dumps(sorted(shell.display_formatter.format(shell.user_ns["fig"])[0])))
"""


def shell_shows(grading: bool) -> list[str]:
    """What an IPython shell with the inline backend, as a kernel has, shows for a course figure."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != drawing.KERNEL_VARIABLE}
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    if grading:
        env[drawing.KERNEL_VARIABLE] = drawing.GRADING
    done = subprocess.run([sys.executable, "-c", SHELL_DRAWS], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_in_a_grading_kernels_shell_a_course_figure_is_its_description_and_in_a_students_a_png():
    assert shell_shows(grading=True) == sorted([picture.PICTURE_MIME, "text/plain"])
    assert shell_shows(grading=False) == ["image/png", "text/html", "text/plain"]
