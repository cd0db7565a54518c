"""'Where am I': every exercise of a lesson, self-checked quietly on the student's own functions, on
every seed its self-check judges.

The last cell of each lesson calls ``check.progress(globals())`` and sees one row per exercise:
Correct, Incorrect (the first sentence of why) or Not attempted, the lesson's core first and
apart from its optional "going further" exercises, so a first pass knows when it is done. A line
above the total names the points of the lesson's written answers, which only an instructor grades,
so the lesson's points are all in view.
"""
import contextlib
import html
import io

from . import outcome
from .exercise import Exercise
from .stored_values import stored_seeds


CORE, FURTHER = "Core", "Going further"


class Progress:
    """One row per exercise: Correct, Incorrect (the first sentence of why) or Not attempted."""

    def __init__(self, rows: list[tuple[str, str, str]], core: tuple[str, ...] = (),
                 written: dict[str, int] | None = None):
        self.rows = rows  # (exercise, status, detail)
        self.core = tuple(core)
        self.written = dict(written or {})  # written answer -> its points, graded by hand

    def part(self, name: str) -> str:
        return CORE if name in self.core or not self.core else FURTHER

    def summary(self) -> list[str]:
        done = sum(status == "Correct" for _, status, _ in self.rows)
        lines = []
        if self.core:
            for part in (CORE, FURTHER):
                rows = [status for name, status, _ in self.rows if self.part(name) == part]
                lines.append(f"{part}: {sum(s == 'Correct' for s in rows)} of {len(rows)} correct.")
        if self.written:
            points = sum(self.written.values())
            lines.append(f"Written answer{'s' if len(self.written) > 1 else ''}, graded by hand: "
                         f"{points} point{'s' if points != 1 else ''}.")
        return lines + [f"{done} of {len(self.rows)} exercises correct."]

    def __repr__(self):
        width = max(len(name) for name, _, _ in self.rows)
        lines, part = [], None
        for name, status, detail in self.rows:
            if self.core and self.part(name) != part:
                part = self.part(name)
                lines.append(f"{part}{' (optional)' if part == FURTHER else ''}:")
            lines.append(f"{name:<{width}}  {status}{': ' + detail if detail else ''}")
        return "\n".join(lines + self.summary())

    def _repr_html_(self):
        colours = {"Correct": "#1b7837", "Incorrect": "#b2182b", "Not attempted": "#8c6d00"}
        body, part = "", None
        for name, status, detail in self.rows:
            if self.core and self.part(name) != part:
                part = self.part(name)
                body += (f'<tr><th colspan="3" style="text-align:left">{part}'
                         f'{" (optional)" if part == FURTHER else ""}</th></tr>')
            body += (f'<tr><td><code>{html.escape(name)}</code></td>'
                     f'<td style="color:{colours[status]};font-weight:600">{status}</td>'
                     f"<td style=\"text-align:left\">{html.escape(detail)}</td></tr>")
        summary = "".join(f"<p>{html.escape(line)}</p>" for line in self.summary())
        return f"<table><tr><th>Exercise</th><th>Status</th><th>Why</th></tr>{body}</table>{summary}"


def _first_sentence(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    cut = first.find(". ")
    return first[:cut + 1] if cut >= 0 else first


def _status(exercise: Exercise, answer) -> tuple[str, str]:
    if not callable(answer):
        return "Not attempted", "its cell has not been run"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        result, _, _ = exercise.self_check(answer, stored_seeds(exercise.lesson, exercise.name))
    if result.outcome == outcome.CORRECT:
        return "Correct", ""
    if result.outcome == outcome.NOT_ATTEMPTED:
        return "Not attempted", ""
    return "Incorrect", _first_sentence(result.message)


def progress_of(exercises: dict[str, Exercise], namespace: dict, core: tuple[str, ...] = (),
                written: dict[str, int] | None = None) -> Progress:
    unknown = set(core) - set(exercises)
    if unknown:
        raise ValueError(f"the core names exercises the lesson does not have: {sorted(unknown)}")
    order = [name for name in exercises if name in core] + [name for name in exercises if name not in core]
    return Progress([(name, *_status(exercises[name], namespace.get(name))) for name in order], core, written)


def lesson_progress(exercises: dict[str, Exercise], core: tuple[str, ...] = (),
                    written: dict[str, int] | None = None):
    """A lesson's ``progress(globals())``: 'Where am I', from the student's own functions, its core
    (the exercises of the first pass) listed first and apart, and the points of its written answers
    (``written``: answer cell -> points, as in the lesson script), which no self-check can judge."""
    def progress(namespace: dict) -> Progress:
        """Each exercise of this lesson, self-checked quietly on your own functions (pass globals())."""
        return progress_of(exercises, namespace, core, written)
    return progress
