"""'Where am I': every exercise of a lesson, self-checked quietly on the student's own functions.

The last cell of each lesson calls ``check.progress(globals())`` and sees one row per exercise:
Correct, Incorrect (the first sentence of why) or Not attempted. A lesson that names its core
exercises sees them apart from the optional "going further" ones, each part with its own count.
"""
import contextlib
import html
import io
import warnings

from . import outcome
from .exercise import SELF_CHECK_SEEDS, Exercise, stored_expected


class Progress:
    """One row per exercise: Correct, Incorrect (the first sentence of why) or Not attempted."""

    def __init__(self, rows: list[tuple[str, str, str]], core: tuple[str, ...] = ()):
        self.rows = rows  # (exercise, status, detail)
        self.core = core  # the exercises of the lesson's core; empty: the lesson is not split

    def parts(self) -> list[tuple[str, list[tuple[str, str, str]]]]:
        """(title, rows): the core, then going further; one untitled part for a lesson not split."""
        if not self.core:
            return [("", self.rows)]
        return [("Core", [r for r in self.rows if r[0] in self.core]),
                ("Going further (optional)", [r for r in self.rows if r[0] not in self.core])]

    @staticmethod
    def _count(rows, title: str) -> str:
        done = sum(status == "Correct" for _, status, _ in rows)
        return f"{done} of {len(rows)} {title.split(' (')[0].lower() + ' ' if title else ''}exercises correct."

    def __repr__(self):
        width = max(len(name) for name, _, _ in self.rows)
        lines = []
        for title, rows in self.parts():
            lines += [f"{title}:"] if title else []
            lines += [f"{'  ' if title else ''}{name:<{width}}  {status}{': ' + detail if detail else ''}"
                      for name, status, detail in rows]
            lines.append(self._count(rows, title))
        return "\n".join(lines)

    def _repr_html_(self):
        colours = {"Correct": "#1b7837", "Incorrect": "#b2182b", "Not attempted": "#8c6d00"}
        out = []
        for title, rows in self.parts():
            body = "".join(f'<tr><td><code>{html.escape(name)}</code></td>'
                           f'<td style="color:{colours[status]};font-weight:600">{status}</td>'
                           f"<td style=\"text-align:left\">{html.escape(detail)}</td></tr>"
                           for name, status, detail in rows)
            out.append((f"<h4>{html.escape(title)}</h4>" if title else "")
                       + f"<table><tr><th>Exercise</th><th>Status</th><th>Why</th></tr>{body}</table>"
                       + f"<p>{html.escape(self._count(rows, title))}</p>")
        return "".join(out)


def _first_sentence(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    cut = first.find(". ")
    return first[:cut + 1] if cut >= 0 else first


def _status(exercise: Exercise, answer) -> tuple[str, str]:
    if not callable(answer):
        return "Not attempted", "its cell has not been run"
    seed = SELF_CHECK_SEEDS[0]
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        result = exercise.verdict(exercise.observe(answer, seed),
                                  stored_expected(exercise.lesson, exercise.name, seed), seed)
    if result.outcome == outcome.CORRECT:
        return "Correct", ""
    if result.outcome == outcome.NOT_ATTEMPTED:
        return "Not attempted", ""
    return "Incorrect", _first_sentence(result.message)


def progress_of(exercises: dict[str, Exercise], namespace: dict, core: tuple[str, ...] = ()) -> Progress:
    return Progress([(name, *_status(exercise, namespace.get(name))) for name, exercise in exercises.items()],
                    core)


def lesson_progress(exercises: dict[str, Exercise], core: tuple[str, ...] = ()):
    """A lesson's ``progress(globals())``: 'Where am I', from the student's own functions.

    ``core`` names the exercises of the lesson's core, shown apart from the going-further ones."""
    unknown = set(core) - set(exercises)
    if unknown:
        raise ValueError(f"core names exercises the lesson does not have: {sorted(unknown)}")

    def progress(namespace: dict) -> Progress:
        """Each exercise of this lesson, self-checked quietly on your own functions (pass globals())."""
        return progress_of(exercises, namespace, core)
    return progress
