"""Course helpers that would do an exercise for the student are closed while that exercise is checked.

``walk_graph`` (and the printouts and drawings built on it) walks a graph exactly as
``grad_fn_names`` and ``count_nodes`` ask the student to: it stays free to use everywhere in the
lesson, but an answer that calls it while its own exercise runs fails with a message saying so.
Each helper refuses under the name the notebook calls it by, so the message names what the answer called.
"""
import contextlib
import contextvars

from .mistakes import Mistake

_closed: contextvars.ContextVar[frozenset] = contextvars.ContextVar("closed_helpers", default=frozenset())
_checked: contextvars.ContextVar[str] = contextvars.ContextVar("checked_exercise", default="")


@contextlib.contextmanager
def closing(exercise: str, helpers):
    """While an exercise's answer runs, refuse the course helpers that would answer it."""
    closed, checked = _closed.set(frozenset(helpers)), _checked.set(exercise)
    try:
        yield
    finally:
        _closed.reset(closed)
        _checked.reset(checked)


def refuse_if_closed(helper: str) -> None:
    """Called first by each helper that does an exercise's work."""
    if helper in _closed.get():
        raise Mistake(f"your answer calls the course's {helper}(), which walks the graph for you, so it is "
                      f"switched off while `{_checked.get()}` is checked: write the walk yourself with "
                      "grad_fn and next_functions.", "course_helper_used")
