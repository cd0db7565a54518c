"""A lesson's outline, derived from its script: its graded exercises in the lesson's order, each with its
points and part, and its written answers. Nothing of it is typed twice.

The core ends at the lesson's ``# Going further`` heading (course/lesson_parts.py); a lesson without
one has no parts. The outline is stored in the student package
(``course/exercises/outlines/<lesson>.json``), where 'Where am I' reads its order, its core and the
written answers' points; ``autograd-course build`` writes it, and the points table of
docs/lessons.md is made from it.
"""
import json
import os

from course.grade_ids import exercise_of_test
from course.lesson_package import outline_path
from course.lesson_parts import CORE, FURTHER_PART, is_graded, places  # noqa: F401  (CORE, FURTHER_PART: the parts' names)


def outline(notebook) -> dict:
    """``{"exercises": [{"name", "points", "part"}...], "written": [...]}`` in the notebook's order."""
    exercises, written = [], []
    for cell, place in zip(notebook.cells, places(notebook.cells)):
        if not is_graded(cell):
            continue
        points = cell.metadata["nbgrader"]["points"]
        entry = {"name": cell.metadata["nbgrader"]["grade_id"], "points": points, "part": place.part}
        if cell.cell_type == "code":
            exercises.append({**entry, "name": exercise_of_test(entry["name"])})
        else:
            written.append(entry)
    return {"exercises": exercises, "written": written}


def text_of(notebook) -> str:
    """The outline as stored: one line per exercise or answer, so adding one changes one line."""
    found = outline(notebook)
    parts = [f'"{key}": [' + ",".join(f"\n  {json.dumps(entry)}" for entry in found[key])
             + ("\n ]" if found[key] else "]") for key in ("exercises", "written")]
    return "{\n " + ",\n ".join(parts) + "\n}\n"


def stale(lesson: str, notebook) -> bool:
    """Whether the stored outline is missing or no longer the lesson's."""
    try:
        with open(outline_path(lesson), encoding="utf-8") as handle:
            return handle.read() != text_of(notebook)
    except OSError:
        return True


def write(lesson: str, notebook) -> str:
    """Store the lesson's outline (only when it changed: no churn in git); its path."""
    path = outline_path(lesson)
    if stale(lesson, notebook):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text_of(notebook))
    return path
