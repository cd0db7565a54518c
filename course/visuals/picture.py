"""A course figure as plain data, then drawn from that data alone: where it is drawn is all grading changes.

Each kind of figure has two halves side by side in its module: one reads the notebook's objects
(tensors, functions, a recorded backward pass) and returns a *description*, a dict of plain data
with its ``kind``; the other draws a matplotlib figure from a description and nothing else,
checking it first (``PictureError`` says what is wrong). In a student's kernel, nbval, the build
and under nbgrader's own Execute both halves run in the kernel, as one call. In a kernel the grader
started (``drawing.grading()``) the kernel sends the description instead of a picture, under
``PICTURE_MIME``, and the grader draws it (``autograder/grading/judging/pictures.py``): identical
descriptions (a lesson's own figures, a correct answer's graph) are drawn once per grading process,
and a description is data, so the kernel cannot make the grader run anything but this drawing.

Each kind's module also says its figure in words (``text_alternative``), from the same description:
a screen reader reads it where the picture is. JupyterLab gives an ``image/png`` output no ``alt``,
so a figure drawn here is shown as ``text/html`` (the same PNG in an ``<img>`` with its ``alt``) beside
the ``image/png``; nbconvert's pages read the ``alt`` of the PNG's output metadata, which a grading
kernel sends with its description; ``text/plain`` says it too.
"""
import base64
import html
import importlib
import io

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.layout_engine import PlaceHolderLayoutEngine

from course.visuals.drawing import GRADING_DPI, GRADING_PNG, figure_dpi, grading, png

PICTURE_MIME = "application/vnd.autograd-course.picture+json"
PLACEHOLDER = "<Figure>"  # a described figure's text, until the grader draws it and says its size
KINDS = {  # kind -> the module whose ``draw_picture`` draws it
    "gradient": "course.visuals.gradient_plot",
    "grad_history": "course.visuals.grad_history_plot",
    "graph": "course.visuals.draw_graph",
    "backward_step": "course.visuals.backward_steps",
}
MAX_WORDS = 6000  # characters of a figure's text alternative; a longer one (a graph of 100 nodes) is cut there, ending in …
MAX_TEXT = 2000  # characters of one label, title or node line
MAX_INCHES, MAX_AREA = 100, 1500  # a picture's widest side and its area, in inches (7.8 million pixels
# at most while grading: what the drawing's buffer holds)
MAX_ALL_TEXT = 50_000  # characters of text in one description, packed floats aside
MAX_FLOATS = 20_000  # values of one packed array
PACKED = ("xs", "y", "dy", "point", "values", "one_call")  # the keys whose texts are packed floats


class PictureError(ValueError):
    """A description that cannot be drawn, and why (in words a student can act on)."""


# --- the kernel's half ----------------------------------------------------------------------------

def show(description: dict):
    """What a figure function returns: a ``Picture`` drawn here, or, in a grading kernel, one the
    grader draws."""
    return Picture(description, None if grading() else draw(description))


def bundle(description: dict, dpi: float, drawn: bytes | None = None) -> tuple[dict, dict]:
    """A widget's display picture, as display bundle entries and their metadata: PNG drawn here
    (``drawn``, when the widget has drawn it already), or, in a grading kernel, the description;
    either way with its text alternative as the PNG's ``alt``."""
    metadata = alt_metadata(text_alternative(description))
    if grading():
        return {PICTURE_MIME: description}, metadata
    return {"image/png": base64.b64encode(drawn or png(draw(description), dpi)).decode("ascii")}, metadata


def alt_metadata(words: str) -> dict:
    """The output metadata by which nbconvert's pages give a PNG its ``alt``."""
    return {"image/png": {"alt": words}}


def image_html(png_base64: str, words: str) -> str:
    """The PNG as an ``<img>`` with its text alternative: what JupyterLab shows of a course figure."""
    return f'<img src="data:image/png;base64,{png_base64}" alt="{html.escape(words)}">'


class Picture:
    """A course figure as a notebook shows it: drawn here (``drawn``), or, in a grading kernel,
    described for the grader to draw. Anything public asked of it (its axes, ``savefig``) is the
    figure's, drawn here if it was not, so code that uses the figure still works. Private names are
    not passed on: showing it, IPython asks for ``_ipython_display_``, ``_repr_html_`` and a canary
    name that no object has, and each would draw it for nothing."""

    def __init__(self, description: dict, drawn: Figure | None = None):
        self.description = description
        self._figure = drawn
        self._described = drawn is None  # shown as its description, even once code has drawn it

    def _repr_mimebundle_(self, **kwargs):
        words = text_alternative(self.description)
        if self._described:
            return {PICTURE_MIME: self.description, "text/plain": PLACEHOLDER}, alt_metadata(words)
        png_data = _inline_png(self._figure)
        return ({"image/png": png_data, "text/html": image_html(png_data, words), "text/plain": words},
                alt_metadata(words))

    def __repr__(self) -> str:  # inside a printed tuple or list, as a figure's repr reads there
        return PLACEHOLDER if self._described else repr(self._figure)

    def __getattr__(self, name):
        if name.startswith("_") or name == "description":
            raise AttributeError(name)
        if self._figure is None:
            self._figure = draw(self.description)
        return getattr(self._figure, name)


def _inline_png(fig: Figure) -> str:
    """``fig`` as base64 PNG, drawn as the kernel's inline backend draws a figure."""
    from IPython import get_ipython
    from IPython.core.pylabtools import print_figure
    options = {"bbox_inches": "tight"}
    if get_ipython() is not None:
        from matplotlib_inline.config import InlineBackend
        options = dict(InlineBackend.instance(parent=get_ipython()).print_figure_kwargs)
    return print_figure(fig, "png", base64=True, **options)


def text_alternative(description: dict) -> str:
    """The figure in words, from the description it is drawn from (each kind's ``text_alternative``);
    a description that cannot be drawn says so."""
    module = KINDS.get(description.get("kind")) if isinstance(description, dict) else None
    try:
        if module is None:
            raise PictureError("no picture of that kind")
        words = importlib.import_module(module).text_alternative(description)
    except PictureError as error:
        return f"A picture that cannot be drawn: {error}."
    return words if len(words) <= MAX_WORDS else words[:MAX_WORDS - 1] + "…"


def pack(values) -> str:
    """Floats as base64 of little-endian float64: exact, NaN and infinity included, quick to read."""
    return base64.b64encode(np.ascontiguousarray(values, dtype="<f8").tobytes()).decode("ascii")


# --- the drawing half -----------------------------------------------------------------------------

def draw(description, dpi: float | None = None) -> Figure:
    """The figure a description describes, checked first, at ``dpi`` (None: as ``figure_dpi`` says);
    the figure is closed (shown once, as a value)."""
    if not isinstance(description, dict):
        raise PictureError("a picture's description is not a mapping")
    module = KINDS.get(description.get("kind"))
    if module is None:
        raise PictureError(f"no kind of picture is called {str(description.get('kind'))[:40]!r}")
    if _text_in(description) > MAX_ALL_TEXT:
        raise PictureError(f"it holds more than {MAX_ALL_TEXT} characters of text")
    fig = importlib.import_module(module).draw_picture(description, figure_dpi() if dpi is None else dpi)
    plt.close(fig)
    _laid_out(fig)
    width, height = fig.get_size_inches()
    if max(width, height) > MAX_INCHES or width * height > MAX_AREA:  # checked before any pixel is drawn
        raise PictureError(f"it would be {width:.0f} x {height:.0f} inches, more than {MAX_INCHES} on a side "
                           f"or {MAX_AREA} square inches")
    return fig


def _laid_out(fig: Figure) -> None:
    """A figure laid out by ``tight_layout`` keeps a placeholder layout engine, and ``savefig`` draws a
    figure that has an engine twice, the first time unseen, for the engine to lay it out: here it is
    laid out already, so the engine goes and a figure saved without a tight crop (a grading
    kernel's, the grader's) is drawn once. The same pixels; unchanged where the matplotlibrc asks
    for a layout engine on every figure."""
    if isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine) and not (
            matplotlib.rcParams["figure.autolayout"] or matplotlib.rcParams["figure.constrained_layout.use"]):
        fig.set_layout_engine(None)


def _text_in(description: dict) -> int:
    """Characters of text in a description (what drawing it costs most), packed arrays aside."""
    total, todo = 0, [v for k, v in description.items() if k not in PACKED]  # packed: at the top only
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
        elif isinstance(value, str):
            total += len(value)
    return total


def drawing_modules() -> None:
    """Import every kind's drawing module (a grader's warm parent does, before it forks)."""
    for module in KINDS.values():
        importlib.import_module(module)


def grading_png(description) -> tuple[bytes, str]:
    """The PNG a grading kernel would have shown for this description, and the figure's text."""
    fig = draw(description, GRADING_DPI)  # as figure_dpi() makes it in a grading kernel
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=GRADING_DPI, pil_kwargs=GRADING_PNG)
    return buffer.getvalue(), repr(fig)


def text(description: dict, key: str) -> str:
    value = description.get(key)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise PictureError(f"{key} must be a text of at most {MAX_TEXT} characters")
    return value


def integer(description: dict, key: str, low: int, high: int) -> int:
    value = description.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PictureError(f"{key} must be a whole number from {low} to {high}")
    return value


def items(description: dict, key: str, limit: int) -> list:
    value = description.get(key)
    if not isinstance(value, list) or len(value) > limit:
        raise PictureError(f"{key} must be a list of at most {limit} entries")
    return value


def floats(description: dict, key: str, limit: int = MAX_FLOATS) -> np.ndarray:
    value = description.get(key)
    if not isinstance(value, str) or len(value) > (limit * 8 + 2) // 3 * 4:
        raise PictureError(f"{key} must be at most {limit} packed floats")
    try:
        raw = base64.b64decode(value, validate=True)
    except ValueError:
        raise PictureError(f"{key} is not base64") from None
    if len(raw) % 8:
        raise PictureError(f"{key} is not a whole number of float64 values")
    return np.frombuffer(raw, dtype="<f8").astype(np.float64)
