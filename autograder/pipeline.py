"""nbgrader's own steps the course runs through its Python API: release and feedback, and reading scores.

Grading is not here: it has one path, ``autograder/grading/batch/run.py``, which ``grade``, ``prove``
and the tests all take. A feedback page that cannot be made is reported and skipped; it never stops the others.
"""
import re

from .course_dir import assignments, open_api


class PipelineError(RuntimeError):
    """An nbgrader step failed for the course itself (not for one submission)."""


EXCEPTION_LINE = re.compile(r"^\s*(?:[\w]+\.)*(\w*(?:Error|Exception|Exit)): (.+)$")


def root_cause(result: dict) -> str:
    """The last exception nbgrader logged before its summary ("NotJSONError: ...")."""
    text = f"{result.get('log') or ''}\n{result.get('error') or ''}"
    causes = [f"{m.group(1)}: {m.group(2).strip()}" for m in map(EXCEPTION_LINE.match, text.splitlines())
              if m and m.group(1) != "NbGraderException"]
    return causes[-1] if causes else (text.strip().splitlines() or ["unknown error"])[-1].strip()


def generate_release(root: str, only: list[str] | None = None) -> list[str]:
    api = open_api(root)
    done = []
    for assignment in only or assignments(root):
        result = api.generate_assignment(assignment, force=True)
        if not result["success"]:
            raise PipelineError(f"generate_assignment {assignment} failed:\n{result.get('error') or result.get('log')}")
        done.append(assignment)
    return done


def generate_feedback(root: str, assignment: str, students: list[str]) -> dict[str, str]:
    """Feedback HTML per student (hidden tests removed by autograder.feedback.HideHiddenTests)."""
    api = open_api(root)
    problems = {}
    for student in students:
        result = api.generate_feedback(assignment, student, force=True)
        if not result["success"]:
            problems[student] = root_cause(result)
    return problems


def scores(root: str) -> list[dict]:
    """One row per student and assignment, with autograded and total points from the gradebook."""
    api = open_api(root)
    rows = []
    with api.gradebook as gradebook:
        for assignment in gradebook.assignments:
            for student in gradebook.students:
                try:
                    submission = gradebook.find_submission(assignment.name, student.id)
                except Exception:
                    continue  # this student did not submit this assignment
                rows.append({"assignment": assignment.name, "student": student.id,
                             "score": submission.score, "max_score": submission.max_score,
                             "code_score": submission.code_score, "max_code_score": submission.max_code_score,
                             "needs_manual_grade": submission.needs_manual_grade})
    return rows


def cell_scores(root: str, assignment: str, student: str) -> dict[str, float]:
    """grade_id -> points earned, for the tests that prove each check can fail."""
    api = open_api(root)
    with api.gradebook as gradebook:
        submission = gradebook.find_submission(assignment, student)
        return {grade.name: grade.score for notebook in submission.notebooks for grade in notebook.grades}
