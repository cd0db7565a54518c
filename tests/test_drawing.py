"""A grading kernel draws every course figure with fewer pixels and still shows each one; a student's
kernel draws as before. (tests/test_outputs_kept.py checks the same in kernels the grader started.)"""
import base64
import io

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from IPython.core.pylabtools import print_figure  # noqa: E402
from PIL import Image  # noqa: E402

from autograder.grading.kernels.fence import KERNEL_ENVIRONMENT  # noqa: E402
from course.visuals import drawing  # noqa: E402
from course.visuals.backward_steps import backward_steps  # noqa: E402
from course.visuals.draw_graph import draw_graph  # noqa: E402
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


def test_a_grading_kernel_draws_course_figures_at_the_grading_dpi_and_the_same_size_in_inches(grading):
    for fig in figures():
        assert fig.dpi == drawing.GRADING_DPI
        assert dpi_of(print_figure(fig, "png")) == pytest.approx(drawing.GRADING_DPI, abs=0.1)


def test_a_students_kernel_draws_them_as_matplotlib_does(lesson):
    for fig in figures():
        assert fig.dpi == matplotlib.rcParams["figure.dpi"] != drawing.GRADING_DPI
    assert drawing.figure_dpi() is None


def test_same_picture_fewer_pixels(lesson, monkeypatch):
    y, names = graph()
    full = print_figure(draw_graph(y, names), "png")
    monkeypatch.setenv(drawing.KERNEL_VARIABLE, drawing.GRADING)
    cheap = print_figure(draw_graph(y, names), "png")
    assert width_of(cheap) == pytest.approx(width_of(full) * drawing.GRADING_DPI / 100, abs=3)


def test_the_png_helper_caps_its_dpi_while_grading_and_closes_the_figure(lesson, monkeypatch):
    y, names = graph()
    assert dpi_of(drawing.png(draw_graph(y, names), 100)) == pytest.approx(100, abs=0.1)
    monkeypatch.setenv(drawing.KERNEL_VARIABLE, drawing.GRADING)
    fig = draw_graph(y, names)
    assert dpi_of(drawing.png(fig, 100)) == pytest.approx(drawing.GRADING_DPI, abs=0.1)
    assert dpi_of(drawing.png(draw_graph(y, names), 50)) == pytest.approx(50, abs=0.1)  # never more pixels
    assert not matplotlib.pyplot.fignum_exists(fig.number)


def widgets():
    y, names = graph()
    return [slope_explorer(torch.sin, -1, 1), expression_graph("x * y"), backward_steps(y, names)]


def test_a_grading_kernel_leaves_widgets_pictures_undrawn_and_still_shows_one_figure_each(grading):
    for made in widgets():
        assert bytes(made.image.value) == b""  # no one opens a widget in a graded notebook
        bundle = made._repr_mimebundle_()
        assert WIDGET_VIEW in bundle
        assert dpi_of(base64.b64decode(bundle["image/png"])) == pytest.approx(drawing.GRADING_DPI, abs=0.1)


def test_a_widget_used_while_grading_draws_its_picture(grading):
    explorer, typed, steps = widgets()
    explorer.slider.value = 0.5
    typed.box.value = "x + y"
    steps.slider.value = 1
    for made in (explorer, typed, steps):
        assert dpi_of(bytes(made.image.value)) == pytest.approx(drawing.GRADING_DPI, abs=0.1)


def test_a_students_widgets_show_their_picture_at_once(lesson):
    explorer, typed, steps = widgets()
    assert bytes(explorer.image.value) == explorer.initial_png and dpi_of(explorer.initial_png) == pytest.approx(80, abs=0.1)
    assert bytes(typed.image.value) == typed.initial_png and dpi_of(typed.initial_png) == pytest.approx(100, abs=0.1)
    assert dpi_of(bytes(steps.image.value)) == pytest.approx(100, abs=0.1)


SHELL_DRAWS = """
import base64, io, json
from IPython.core.interactiveshell import InteractiveShell
from PIL import Image
shell = InteractiveShell.instance()
shell.run_cell("import torch\\nfrom course.visuals.draw_graph import draw_graph\\n"
               "x = torch.tensor([1.0, 2.0], requires_grad=True)\\nfig = draw_graph((x * x).sum(), {'x': x})")
fig = shell.user_ns["fig"]
image = Image.open(io.BytesIO(base64.b64decode(shell.display_formatter.format(fig)[0]["image/png"])))
print(json.dumps({"figure": [round(v) for v in fig.get_size_inches() * fig.dpi], "png": image.size}))
"""


def shell_draws(grading: bool) -> dict:
    """What an IPython shell with the inline backend, as a kernel has, shows for a course figure."""
    import json
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


def test_in_a_grading_kernels_shell_the_inline_backend_writes_the_whole_figure_without_its_crop():
    graded, lesson = shell_draws(grading=True), shell_draws(grading=False)
    assert graded["png"] == graded["figure"]  # the figure as it is, at the grading dpi
    assert lesson["png"] != lesson["figure"]  # the lesson's: the inline backend's tight crop
    assert graded["figure"][0] == pytest.approx(lesson["figure"][0] * drawing.GRADING_DPI / 100, abs=1)
