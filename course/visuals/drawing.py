"""How the course's figures are drawn: at the lesson's resolution for a student, more cheaply while grading.

A grading kernel is one the grader started: it sets ``KERNEL_VARIABLE`` to ``GRADING`` in every
kernel it fences (``autograder/grading/kernels/fence.py``, whose ``KERNEL_ENVIRONMENT`` repeats the
two names, since the grader's kernel start may not import the course). There, a course figure is
described and the grader draws it (``picture.py``), and the feedback a student reads back still
shows every figure, the same picture and the same size in inches, drawn with fewer pixels
(``GRADING_DPI``), without the inline backend's tight crop (a second layout pass
that only trims the margin) and with a faster PNG compression; and a widget's own picture, which no
one sees in a graded notebook (its state is not kept), is drawn only when the widget is used.
Anywhere else (the student's JupyterLab, nbval, the build, nbgrader's own Execute) nothing
changes. The variable is read at each call, not at import: the grader's warm parent imports this
module before any kernel exists.
"""
import io
import os

import matplotlib.pyplot as plt
from IPython import get_ipython

KERNEL_VARIABLE, GRADING = "AUTOGRAD_COURSE_KERNEL", "grading"
GRADING_DPI = 72  # IPython's inline default before matplotlib-inline 0.1.4; text stays legible
GRADING_PNG = {"compress_level": 1}  # zlib's fastest level: a little larger, much quicker to write
GRADING_INLINE = {"bbox_inches": None, "pil_kwargs": GRADING_PNG}  # the inline backend's print_figure_kwargs


def grading() -> bool:
    """Whether this kernel is one the grader started (and so no one opens its widgets)."""
    return os.environ.get(KERNEL_VARIABLE) == GRADING


def figure_dpi() -> float | None:
    """The ``dpi`` a course figure is created with: None (matplotlib's own) except while grading,
    where the inline backend then draws it with ``GRADING_DPI`` pixels per inch (and as
    ``GRADING_INLINE`` says, set here in the kernel's shell: the warm parent that imported this has none)."""
    if not grading():
        return None
    shell = get_ipython()
    if shell is not None:
        from matplotlib_inline.config import InlineBackend
        inline = InlineBackend.instance(parent=shell)
        if inline.print_figure_kwargs != GRADING_INLINE:  # a change re-registers the PNG formatter
            inline.print_figure_kwargs = dict(GRADING_INLINE)
    return GRADING_DPI


def png(fig, dpi: float) -> bytes:
    """``fig`` as PNG bytes at ``dpi`` (at most ``GRADING_DPI`` while grading); the figure is closed,
    so the inline backend does not show it a second time."""
    fig = fig.figure  # a figure is its own; a course ``Picture`` passes on its figure's
    buffer = io.BytesIO()
    if grading():
        fig.savefig(buffer, format="png", dpi=min(dpi, GRADING_DPI), pil_kwargs=GRADING_PNG)
    else:
        fig.savefig(buffer, format="png", dpi=dpi)
    plt.close(fig)
    return buffer.getvalue()
