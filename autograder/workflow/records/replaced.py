"""Notebooks a resubmission replaced, kept where the instructor finds them, never deleted.

When ``collect`` places a newer notebook over one in ``submitted/``, the one before (with its
``timestamp.txt``) moves to ``ungraded/<student>/<lesson>/replaced/<n>/``, numbered in the order they
were replaced, so an earlier attempt, its hand grade's answer or a dispute can still be looked at.
"""
import os
import shutil

from .ledger import LEDGER

FOLDER = "replaced"


def keep_replaced(root: str, student: str, lesson: str) -> str:
    """Move the notebook in submitted/ (and its time) aside before it is replaced; where it went,
    relative to the course, or "" when there was none."""
    folder = os.path.join(root, "submitted", student, lesson)
    notebook = os.path.join(folder, f"{lesson}.ipynb")
    if not os.path.isfile(notebook):
        return ""
    base = os.path.join(root, LEDGER, student, lesson, FOLDER)
    os.makedirs(base, exist_ok=True)
    number = 1 + max((int(n) for n in os.listdir(base) if n.isdigit()), default=0)
    target = os.path.join(base, str(number))
    os.makedirs(target)
    for name in (f"{lesson}.ipynb", "timestamp.txt"):
        if os.path.isfile(os.path.join(folder, name)):
            shutil.copy2(os.path.join(folder, name), os.path.join(target, name))
    return os.path.relpath(os.path.join(target, f"{lesson}.ipynb"), root)


def replaced(root: str, student: str, lesson: str) -> list[str]:
    """The kept notebooks of a submission, oldest first, relative to the course."""
    base = os.path.join(root, LEDGER, student, lesson, FOLDER)
    numbers = sorted(int(n) for n in os.listdir(base) if n.isdigit()) if os.path.isdir(base) else []
    return [os.path.relpath(os.path.join(base, str(n), f"{lesson}.ipynb"), root) for n in numbers]
