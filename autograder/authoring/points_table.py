"""The points table of docs/lessons.md, made from the lesson scripts: what each part of a lesson is
worth is stated in its script (``points=N``) and written nowhere else by hand.

``autograd-course build`` rewrites the table between its two marker lines; the rest of the guide is
left as it is.
"""
import os
import re

from . import lesson_outline
from .lesson_script import read

BEGIN = "<!-- points: written by `autograd-course build` from the lesson scripts -->"
END = "<!-- end of points -->"
HEADER = ["| # | assignment | core | going further | written, graded by hand | total |", "|---|---|---|---|---|---|"]


def _count(entries: list[dict], what: str) -> str:
    points = sum(entry["points"] for entry in entries)
    return f"{len(entries)} {what}{'s' if len(entries) != 1 else ''}, {points:g} pts" if entries else "none"


def row(assignment: str, found: dict) -> str:
    """One lesson's row: its core, its going further and its written answers, with their points."""
    exercises = found["exercises"]
    total = sum(entry["points"] for entry in exercises + found["written"])
    core = _count([e for e in exercises if e["part"] == lesson_outline.CORE], "exercise")
    further = _count([e for e in exercises if e["part"] == lesson_outline.FURTHER_PART], "exercise")
    return (f"| {assignment[:2].lstrip('0')} | `{assignment}` | {core} | {further} | "
            f"{_count(found['written'], 'answer')} | {total:g} pts |")


def table(scripts: list[str]) -> str:
    """The whole table, one row per lesson script, between its markers."""
    rows = [row(os.path.basename(script)[:-3], lesson_outline.outline(read(script))) for script in scripts]
    return "\n".join([BEGIN, *HEADER, *rows, END])


def write(guide: str, scripts: list[str]) -> bool:
    """Put the table into ``guide`` between its markers; whether the file changed (False too when the
    guide has no markers, as a scratch course's has none)."""
    with open(guide, encoding="utf-8") as handle:
        text = handle.read()
    found = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), text, re.DOTALL)
    if not found:
        return False
    new = text[:found.start()] + table(scripts) + text[found.end():]
    if new != text:
        with open(guide, "w", encoding="utf-8") as handle:
            handle.write(new)
    return new != text
