"""Hand grades survive grading again when the answer they grade did not change.

nbgrader's ``SaveAutoGrades`` flags every cell that has a manual score for review whenever a
submission is autograded again (``grade --force``, or a resubmission), so a written answer graded
1.5/2 goes back to "needs manual grade" and its lesson waits again, though nothing changed.
We know better: before grading, :func:`before` notes each hand-graded cell's score and a digest of
the answer it graded (from the previous ``autograded/`` copy); after recording, :func:`after`
compares with the new copy. The same answer keeps its score and its "graded" state; a changed one
stays flagged (nbgrader keeps the old score beside the flag), and ``status.py`` and the export say
that the answer changed since it was graded by hand.

The answer of a written (markdown) grade cell is its own text; a hand score on a test cell (an
instructor overriding the autograder) grades the code, so its answer is every code solution cell.
"""
import hashlib
import json
from dataclasses import dataclass, field, replace

from ..records.status import formgrader_place


def answers(path: str) -> dict[str, str]:
    """grade_id -> digest of the answer that cell grades, from one notebook file."""
    try:
        with open(path, encoding="utf-8") as handle:
            cells = json.load(handle).get("cells", [])
    except (OSError, ValueError):
        return {}

    def text(cell) -> str:
        source = cell.get("source", "")
        return "".join(source) if isinstance(source, list) else source

    meta = [(cell, cell.get("metadata", {}).get("nbgrader", {})) for cell in cells]
    code = hashlib.sha256("\x00".join(text(c) for c, m in meta
                                      if m.get("solution") and c.get("cell_type") == "code").encode()).hexdigest()
    found = {}
    for cell, info in meta:
        if info.get("grade") and info.get("grade_id"):
            own = cell.get("cell_type") == "markdown" or info.get("solution")
            found[info["grade_id"]] = hashlib.sha256(text(cell).encode()).hexdigest() if own else code
    return found


@dataclass(frozen=True)
class HandGrade:
    lesson: str
    student: str
    notebook: str
    cell: str
    score: float
    answer: str  # digest, "" when the previous graded copy is gone


@dataclass
class Kept:
    kept: list[HandGrade] = field(default_factory=list)     # same answer: score and "graded" state kept
    changed: list[HandGrade] = field(default_factory=list)  # answer changed: flagged for a person

    def lines(self) -> list[str]:
        out = [f"kept the hand grade of {g.student} / {g.lesson} {g.cell} ({g.score:g} points): answer unchanged"
               for g in self.kept]
        out += [f"HAND GRADE TO CHECK {g.student} / {g.lesson} {g.cell}: the answer changed since it was graded "
                f"by hand ({g.score:g} points then): in {formgrader_place(g.lesson, g.student)}, check its grade "
                "and press Resolve (or give another score)" for g in self.changed]
        return out


def _autograded(course, grade: HandGrade) -> str:
    return course.path("autograded", grade.student, grade.lesson, f"{grade.notebook}.ipynb")


def before(course, jobs: list[tuple[str, str]]) -> list[HandGrade]:
    """Every hand score of the submissions about to be graded, with the answer it was given for."""
    wanted = set(jobs)
    found = []
    with course.api.gradebook as gradebook:
        for assignment in gradebook.assignments:
            for submission in assignment.submissions:
                if (assignment.name, submission.student.id) not in wanted:
                    continue
                for notebook in submission.notebooks:
                    for grade in notebook.grades:
                        if grade.manual_score is not None:
                            found.append(HandGrade(assignment.name, submission.student.id, notebook.name,
                                                   grade.name, float(grade.manual_score), ""))
    digests: dict[str, dict[str, str]] = {}
    noted = []
    for grade in found:
        path = _autograded(course, grade)
        if path not in digests:
            digests[path] = answers(path)
        noted.append(replace(grade, answer=digests[path].get(grade.cell, "")))
    return noted


def after(course, noted: list[HandGrade], recorded: set[tuple[str, str]]) -> Kept:
    """Unflag the hand grades whose answer the new graded copy still holds; ``recorded``: (lesson, student)."""
    result = Kept()
    todo = [g for g in noted if (g.lesson, g.student) in recorded]
    if not todo:
        return result
    with course.api.gradebook as gradebook:
        for grade in todo:
            now = answers(_autograded(course, grade)).get(grade.cell, "")
            if grade.answer and now == grade.answer:
                row = gradebook.find_grade(grade.cell, grade.notebook, grade.lesson, grade.student)
                row.manual_score, row.needs_manual_grade = grade.score, False
                result.kept.append(grade)
            else:
                result.changed.append(grade)
        gradebook.db.commit()
    return result
