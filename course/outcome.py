"""The three outcomes of a check, shown the way a learner reads them.

A failed check raises an exception whose ``_render_traceback_`` IPython uses instead of a
traceback: the student (and nbgrader's feedback) sees the message, not our internals.
"""
import html
import os

_GREEN, _RED, _YELLOW, _RESET = "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[0m"


class CheckFailed(AssertionError):
    """An answer that runs but is wrong; the message names the autograd mistake."""

    label = "Incorrect"
    colour = _RED

    def _render_traceback_(self):
        return [f"{self.colour}{self.label}:{_RESET} {line}" if i == 0 else line
                for i, line in enumerate(str(self).splitlines())]


class NotAttempted(NotImplementedError):
    """The starter stub still raises NotImplementedError."""

    def _render_traceback_(self):
        return [f"{_YELLOW}NotImplementedError (not attempted):{_RESET} {self}"]


def grading_run() -> bool:
    """True while nbgrader validates or autogrades, where a blank answer must count as a failure."""
    return bool(os.environ.get("NBGRADER_EXECUTION"))


class Outcome:
    """A rich, displayable verdict: IPython shows HTML, a terminal shows text."""

    styles = {"correct": ("#1b7837", "Correct"), "not attempted": ("#8c6d00", "Not attempted yet")}

    def __init__(self, kind: str, message: str):
        self.kind, self.message = kind, message

    def __repr__(self):
        return f"{self.styles[self.kind][1]}: {self.message}"

    def _repr_html_(self):
        colour, label = self.styles[self.kind]
        return (f'<div style="color:{colour};font-weight:600">{label}: '
                f'<span style="font-weight:400">{html.escape(self.message)}</span></div>')


def correct(message: str) -> Outcome:
    return Outcome("correct", message)


def not_attempted(name: str) -> Outcome:
    """Interactive runs go on past an untouched stub so "Run All" shows the whole lesson;
    validation and autograding must not, or a blank notebook would pass."""
    message = (f"`{name}` still raises NotImplementedError. Replace the "
               "`raise NotImplementedError()` line with your code, then run this cell again.")
    if grading_run():
        raise NotAttempted(message)
    return Outcome("not attempted", message)


def show(verdict: Outcome) -> None:
    """Display now rather than return, so a verdict shows even when it is not a cell's last line."""
    try:
        from IPython.display import display
    except ImportError:
        print(repr(verdict))
    else:
        display(verdict)
