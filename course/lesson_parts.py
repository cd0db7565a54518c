"""Where each graded cell sits in its lesson: the core or going further, under which section and heading.

A lesson's core ends at its ``# Going further`` heading (a line of a markdown cell that begins so); a
lesson without one has no parts, and all of it is core. Sections are its ``## `` headings, exercises
its ``### `` ones. The lesson outline (autograder/authoring/lesson_outline.py) and Validate
(course/validation.py) both read a lesson so. Standard library only: the server imports it.
"""
import re
from dataclasses import dataclass

FURTHER = re.compile(r"^# Going further", re.MULTILINE)
CORE, FURTHER_PART = "core", "further"


def begins_going_further(cell) -> bool:
    return cell.cell_type == "markdown" and bool(FURTHER.search(cell.source))


def is_graded(cell) -> bool:
    return bool(cell.metadata.get("nbgrader", {}).get("grade"))


@dataclass(frozen=True)
class Place:
    part: str      # CORE or FURTHER_PART
    section: str   # its "## " heading, without the hashes ("7. `gradient=` is a vector-Jacobian product")
    heading: str   # its "### " heading in that section ("Exercise 3: a vector-Jacobian product"), or ""


def _headings(source: str, level: str) -> list[str]:
    return [line[len(level):].strip() for line in source.splitlines() if line.startswith(level)]


def places(cells) -> list[Place]:
    """One Place per cell, in order: the part, section and heading each cell comes under."""
    has_parts = any(begins_going_further(cell) for cell in cells)
    part, section, heading, found = CORE, "", "", []
    for cell in cells:
        if begins_going_further(cell):
            part, section, heading = FURTHER_PART, "", ""
        if cell.cell_type == "markdown":
            if _headings(cell.source, "## "):
                section, heading = _headings(cell.source, "## ")[-1], ""
            if _headings(cell.source, "### "):
                heading = _headings(cell.source, "### ")[-1]
        found.append(Place(part if has_parts else CORE, section, heading))
    return found
