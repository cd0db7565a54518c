"""Scores as the gradebook holds them, per submission and per graded cell: what `prove` and the tests read."""
from .course_dir import open_api


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
