"""The outcomes of a check, decided in one place and shown the way a learner reads them.

A trial ends as one ``Verdict``: correct, incorrect (with the mistake named), not attempted (the
stub still raises), or raised (the answer's own code failed). The self-check and the grader both
get theirs from ``verdict``, so they cannot disagree about what an observation means.

A failed self-check raises an exception whose ``_render_traceback_`` IPython uses instead of a
traceback: the student sees the message, not our internals.
"""
import html
import os
from dataclasses import dataclass

from .checks.mistakes import Mistake
from .checks.repeated_calls import RUNS, keeps_state_message, same_observation

_GREEN, _RED, _YELLOW, _RESET = "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[0m"
CORRECT, INCORRECT, NOT_ATTEMPTED, RAISED = "correct", "incorrect", "not_attempted", "raised"
# What a kernel may report about its own run: only outcomes that cost the sender, never "correct".
KERNEL_REPORTS = (INCORRECT, NOT_ATTEMPTED, RAISED)
MAX_MESSAGE = 1500  # a message sent by a kernel is shown to people: keep it readable


@dataclass(frozen=True)
class Verdict:
    outcome: str
    message: str = ""
    kind: str = ""

    @property
    def passed(self) -> bool:
        return self.outcome == CORRECT


def reported(outcome: str, message: str, kind: str) -> dict:
    """How the kernel side writes a failure it saw while running the answer."""
    return {"__outcome__": outcome, "message": message, "kind": kind}


def verdict(judge, observation, expected, inputs) -> Verdict:
    """The outcome of one trial: what the kernel reported, else what ``judge`` finds."""
    if isinstance(observation, dict) and "__outcome__" in observation:
        outcome = observation.get("__outcome__")
        if outcome in KERNEL_REPORTS:
            message = str(observation.get("message", ""))[:MAX_MESSAGE]
            return Verdict(outcome, message, str(observation.get("kind", outcome))[:60])
        return Verdict(INCORRECT, "the answer's run sent back an outcome of its own instead of a result.",
                       "unreadable")
    try:
        judge(observation, expected, inputs)
    except Mistake as mistake:
        return Verdict(INCORRECT, str(mistake), mistake.kind)
    except Exception as error:  # noqa: BLE001  (whatever the judge met in what came back: never raw)
        return Verdict(INCORRECT, "the check could not read what your function returned "
                       f"({type(error).__name__}: {str(error)[:200]}): return what the exercise asks for.",
                       "unreadable")
    return Verdict(CORRECT)


def repeated_verdict(judge, observation, expected, inputs, name: str) -> Verdict:
    """The outcome of a trial whose answer was called twice on the same inputs (``repeated_calls``).

    Both runs are judged. Runs that disagree with each other mean the answer keeps state: that is
    the message (the wrong run's diagnosis follows only when it is about state too: a value diagnosis
    would blame what the state did on the arithmetic). Runs that agree get the first one's verdict.
    """
    if isinstance(observation, dict) and "__outcome__" in observation:
        return verdict(judge, observation, expected, inputs)
    runs = observation.get(RUNS) if isinstance(observation, dict) else None
    if not (isinstance(runs, list) and len(runs) == 2):
        return Verdict(INCORRECT, "the check could not read what your function returned: it expected the "
                       "results of two calls.", "unreadable")
    first, again = (verdict(judge, run, expected, inputs) for run in runs)
    if first.passed and again.passed:
        return first
    if same_observation(runs[0], runs[1]) or first.kind == again.kind == "unreadable":
        return first
    wrong = first if not first.passed else again
    return Verdict(INCORRECT, keeps_state_message(name, wrong.message, wrong.kind), "keeps_state")


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
                f'<span style="font-weight:400">{code_spans(self.message)}</span></div>')


def code_spans(text: str) -> str:
    """Text with `backticks` shown as HTML code, the rest escaped: what the text form writes as Markdown."""
    parts = html.escape(text).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave the text as it is
        return html.escape(text)
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def not_attempted_message(name: str) -> str:
    return (f"`{name}` still raises NotImplementedError. Replace the "
            "`raise NotImplementedError()` line with your code, then run this cell again.")


def show_self_check(name: str, result: Verdict, seed: int, praise: str = "") -> None:
    """Show a self-check's verdict: green, yellow (red under validation), or raise the mistake."""
    if result.outcome == CORRECT:
        return show(Outcome("correct", praise or f"`{name}` matches PyTorch on seed {seed}'s inputs."))
    if result.outcome == NOT_ATTEMPTED:
        # Interactive runs go on past an untouched stub so "Run All" shows the whole lesson;
        # validation must not, or a blank notebook would pass.
        if grading_run():
            raise NotAttempted(not_attempted_message(name))
        return show(Outcome("not attempted", not_attempted_message(name)))
    raise CheckFailed(f"{result.message}\n(checked `{name}` with seed {seed})") from None


def show(verdict_: Outcome) -> None:
    """Display now rather than return, so a verdict shows even when it is not a cell's last line."""
    try:
        from IPython.display import display
    except ImportError:
        print(repr(verdict_))
    else:
        display(verdict_)
