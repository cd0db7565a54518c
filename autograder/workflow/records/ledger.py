"""Where the workflow keeps, beside submitted/, why a submission could not be graded and what else
was handed in with it: one folder per submission, ``ungraded/<student>/<lesson>/``, written by collect
and grade, read by status (and so by every export, the report and the feedback page)."""
import os

LEDGER = "ungraded"
NOTES = "uploads.txt"  # one line per upload kept aside (collect/uploads.py), said with the student's status


def notes(root: str, student: str, lesson: str) -> list[str]:
    """One line per upload kept aside for this student and lesson."""
    path = os.path.join(root, LEDGER, student, lesson, NOTES)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]
