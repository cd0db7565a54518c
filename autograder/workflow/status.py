"""Where each student stands on each lesson: one answer shared by export, feedback and the report.

A student of the roster (or of the gradebook, or with anything under submitted/) is, for a lesson:

- ``graded``: in the gradebook, nothing left for a person to do;
- ``waiting for hand grading``: written answers not graded yet;
- ``hand grade to check``: an answer graded by hand changed since (a resubmission), so its hand
  grade is no longer known to fit it (``hand_grades.py`` keeps the ones whose answer did not change);
- ``could not be graded``: the file was refused by collect (too big) or by grade (not a readable
  notebook, a damaged one), with the reason kept in ``ungraded/<student>/<lesson>/reason.txt``;
- ``not graded yet``: submitted, ``grade`` has not run on it;
- ``missing``: nothing submitted.
"""
import os
import warnings
from dataclasses import dataclass

import nbformat

GRADED = "graded"
WAITING = "waiting for hand grading"
TO_CHECK = "hand grade to check"
UNGRADABLE = "could not be graded"
NOT_YET = "not graded yet"
MISSING = "missing"

LEDGER = "ungraded"  # beside submitted/: why a submission could not be graded, one file per submission


@dataclass(frozen=True)
class Status:
    state: str
    why: str = ""

    @property
    def text(self) -> str:
        return f"{self.state}: {self.why}" if self.why else self.state


def _reason_path(root: str, student: str, lesson: str) -> str:
    return os.path.join(root, LEDGER, student, lesson, "reason.txt")


def record_problem(root: str, student: str, lesson: str, why: str) -> None:
    path = _reason_path(root, student, lesson)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(why.strip() + "\n")


def clear_problem(root: str, student: str, lesson: str) -> None:
    path = _reason_path(root, student, lesson)
    if os.path.exists(path):
        os.remove(path)


def problem(root: str, student: str, lesson: str) -> str:
    path = _reason_path(root, student, lesson)
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as handle:
        return handle.read().strip()


def record_batch(root: str, jobs: list[tuple[str, str]], failed: dict[tuple[str, str], str]) -> None:
    """After ``grade``: keep why each failed submission could not be graded, forget it for the rest."""
    for lesson, student in jobs:
        why = failed.get((lesson, student))
        if why:
            record_problem(root, student, lesson, f"grading stopped: {why}")
        else:
            clear_problem(root, student, lesson)


def _submitted(root: str, student: str, lesson: str) -> str | None:
    path = os.path.join(root, "submitted", student, lesson, f"{lesson}.ipynb")
    return path if os.path.exists(path) else None


def unreadable(data: bytes) -> str:
    """Why these bytes are not a notebook a kernel could run, or "" when they are one."""
    if not data.strip():
        return "an empty file (0 bytes of notebook): the upload was empty or failed"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nbformat.reads(data.decode("utf-8"), as_version=4)
    except Exception as error:  # any way of not being a notebook
        message = (str(error).splitlines() or [""])[0][:120]
        return f"not a readable notebook ({type(error).__name__}: {message})"
    return ""


def _unreadable(path: str, limit: int) -> str:
    if os.path.getsize(path) > limit:
        return f"the notebook is {os.path.getsize(path) / 1024**2:.1f} MiB, over the limit per notebook"
    with open(path, "rb") as handle:
        return unreadable(handle.read())


def status_of(root: str, snapshot, student: str, lesson: str, notebook_limit: int = 50 * 1024**2) -> Status:
    sub = snapshot.submissions.get((student, lesson))
    if sub is not None:
        if sub.changed_hand_grades:
            return Status(TO_CHECK, f"the answer to {', '.join(sub.changed_hand_grades)} changed since it was "
                                    "graded by hand: grade it again in Formgrader")
        if sub.needs_manual_grade:
            waiting = ", ".join(sub.ungraded_by_hand) or "a cell"
            return Status(WAITING, f"{waiting} to grade by hand in Formgrader")
        return Status(GRADED)
    reason = problem(root, student, lesson)
    path = _submitted(root, student, lesson)
    if path:
        # what is wrong with the file says more to a student than nbgrader's error does
        reason = _unreadable(path, notebook_limit) or reason
    if reason:
        return Status(UNGRADABLE, reason)
    if path:
        return Status(NOT_YET, "run autograd-course grade")
    return Status(MISSING)


def everyone(root: str, snapshot, roster_ids=()) -> list[str]:
    """The roster, the gradebook's students, and anyone with a submission or a refused one."""
    found = set(roster_ids) | {s.id for s in snapshot.students}
    for folder in ("submitted", LEDGER):
        base = os.path.join(root, folder)
        if os.path.isdir(base):
            found |= {name for name in os.listdir(base) if os.path.isdir(os.path.join(base, name))
                      and not name.startswith(".")}
    return sorted(found)


def class_status(root: str, snapshot, roster_ids=(), lessons=None) -> dict[tuple[str, str], Status]:
    """(student, lesson) -> Status for every student of ``everyone`` and every lesson."""
    from .lms_settings import Collect, course_config
    limit = Collect(config=course_config(root)).max_notebook_bytes
    return {(student, lesson): status_of(root, snapshot, student, lesson, limit)
            for student in everyone(root, snapshot, roster_ids) for lesson in (lessons or snapshot.lessons)}
