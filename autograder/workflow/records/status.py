"""Where each student stands on each lesson: one answer shared by export, feedback and the report.

A student of the roster (or of the gradebook, or with anything under submitted/) is, for a lesson:

- ``graded``: in the gradebook, nothing left for a person to do;
- ``waiting for hand grading``: written answers not graded yet;
- ``hand grade to check``: an answer graded by hand changed since (a resubmission), so its hand
  grade is no longer known to fit it (``hand_grades.py`` keeps the ones whose answer did not change);
- ``could not be graded``: the file was refused by collect (too big, not a notebook at all, several
  notebooks and nothing to choose by) or by grade (not a readable notebook, a damaged one), with the
  reason kept whole in ``ungraded/<student>/<lesson>/reason.txt``;
- ``not graded yet``: submitted, ``grade`` has not run on it (or a newer notebook was collected since
  it was graded: nothing of the replaced notebook's grading is shown as its);
- ``missing``: nothing submitted.

Whatever the state, the uploads collect kept aside beside the notebook (a PDF, a second notebook:
``uploads.py``) are added to ``why``, so every export, the report and the feedback page say them.
A reason's first line is a plain sentence; a cause found under it (a traceback) stays below it.
"""
import os
import warnings
from dataclasses import dataclass

from .ledger import LEDGER, notes

GRADED = "graded"
WAITING = "waiting for hand grading"
TO_CHECK = "hand grade to check"
UNGRADABLE = "could not be graded"
NOT_YET = "not graded yet"
MISSING = "missing"



@dataclass(frozen=True)
class Status:
    state: str
    why: str = ""

    @property
    def text(self) -> str:
        return f"{self.state}: {self.why}" if self.why else self.state

    @property
    def summary(self) -> str:
        """The first line of ``why``: what a table cell shows; the rest is the cause, kept in the file."""
        return self.why.split("\n", 1)[0]


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


SAME_FILE = "fails-as-it-is.sha256"  # beside reason.txt: the digest of a notebook that fails for what it holds
STOPPED = "grading stopped"  # a failure of the grader's on a readable notebook: the instructor's to look into


def record_batch(root: str, jobs: list[tuple[str, str]], failed: dict[tuple[str, str], str]
                 ) -> dict[tuple[str, str], str]:
    """After ``grade``: keep why each failed submission could not be graded, forget it for the rest;
    (lesson, student) -> the reason kept, for ``grade`` to say the same words as collect and export.

    A failure the file itself causes (empty, not a notebook, too big) is said as what is wrong with the
    file ("an empty file"), not as the parser's error, and marked with the file's digest: the same file
    would fail the same way, so ``grade`` does not try it again until it changes.
    """
    kept = {}
    for lesson, student in jobs:
        why = failed.get((lesson, student))
        marker = os.path.join(root, LEDGER, student, lesson, SAME_FILE)
        if os.path.exists(marker):
            os.remove(marker)
        if not why:
            clear_problem(root, student, lesson)
            continue
        path = _submitted(root, student, lesson)
        fault = _unreadable(path, _notebook_limit(root)) if path else ""
        kept[(lesson, student)] = fault or f"{STOPPED}: {why}"
        record_problem(root, student, lesson, kept[(lesson, student)])
        if fault:
            with open(marker, "w", encoding="utf-8") as handle:
                handle.write(file_digest(path) + "\n")
    return kept


def file_digest(path: str) -> str:
    import hashlib
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def fails_as_it_is(root: str, student: str, lesson: str) -> str:
    """Why this submission cannot be graded, when its notebook is the very file that failed for what it
    holds; "" when it changed, or failed for another reason (a kernel that did not start)."""
    marker = os.path.join(root, LEDGER, student, lesson, SAME_FILE)
    path = _submitted(root, student, lesson)
    if not path or not os.path.exists(marker):
        return ""
    with open(marker, encoding="utf-8") as handle:
        if handle.read().strip() != file_digest(path):
            return ""
    return problem(root, student, lesson)


def _notebook_limit(root: str) -> int:
    from ..lms_settings import Collect, course_config
    return Collect(config=course_config(root)).max_notebook_bytes


def _submitted(root: str, student: str, lesson: str) -> str | None:
    path = os.path.join(root, "submitted", student, lesson, f"{lesson}.ipynb")
    return path if os.path.exists(path) else None


def unreadable(data: bytes) -> str:
    """Why these bytes are not a notebook a kernel could run, or "" when they are one."""
    if not data.strip():
        return "an empty file (0 bytes of notebook): the upload was empty or failed"
    import nbformat  # only here: the grade command starts its warm parents before nbformat is imported
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nbformat.reads(data.decode("utf-8"), as_version=4)
    except Exception as error:  # any way of not being a notebook
        lines = str(error).strip().splitlines() or [""]
        first = f"not a readable notebook ({type(error).__name__}: {lines[0][:200]})"
        return "\n".join([first] + lines[1:20])
    return ""


def _unreadable(path: str, limit: int) -> str:
    if os.path.getsize(path) > limit:
        return f"the notebook is {os.path.getsize(path) / 1024**2:.1f} MiB, over the limit per notebook"
    with open(path, "rb") as handle:
        return unreadable(handle.read())


def status_of(root: str, snapshot, student: str, lesson: str, notebook_limit: int = 50 * 1024**2) -> Status:
    found = _status_of(root, snapshot, student, lesson, notebook_limit)
    others = notes(root, student, lesson)
    if not others:
        return found
    also = "also handed in, not graded: " + "; ".join(others)
    first, _, cause = found.why.partition("\n")
    return Status(found.state, "; ".join(filter(None, [first, also])) + (f"\n{cause}" if cause else ""))


def formgrader_place(lesson: str, student: str) -> str:
    """Where in Formgrader a person grades this submission by hand: its breadcrumbs, then the row
    (nbgrader lists submissions by number until "Show All Names" is pressed)."""
    return f"Formgrader, Manual Grading > {lesson} > {lesson} ({student}'s submission: Show All Names)"


def _status_of(root: str, snapshot, student: str, lesson: str, notebook_limit: int) -> Status:
    sub = snapshot.submissions.get((student, lesson))
    if sub is not None and resubmitted(root, student, lesson):
        return Status(NOT_YET, "a newer notebook was collected since it was graded: run autograd-course grade")
    if sub is not None:
        where = formgrader_place(lesson, student)
        if sub.changed_hand_grades:
            return Status(TO_CHECK, f"the answer to {', '.join(sub.changed_hand_grades)} changed since it was "
                                    f"graded by hand: in {where}, check its grade against the new answer and "
                                    "press Resolve (or give another score)")
        if sub.needs_manual_grade:
            waiting = ", ".join(sub.ungraded_by_hand) or "a cell"
            return Status(WAITING, f"{waiting} to grade by hand in {where}")
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


def resubmitted(root: str, student: str, lesson: str) -> bool:
    """The notebook in submitted/ is newer than its graded copy: what the gradebook holds is stale
    (``grade`` grades it again: ``grading/batch/planning.graded_already``)."""
    path = _submitted(root, student, lesson)
    graded = os.path.join(root, "autograded", student, lesson, f"{lesson}.ipynb")
    return bool(path) and os.path.exists(graded) and os.path.getmtime(graded) < os.path.getmtime(path)


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
    limit = _notebook_limit(root)
    return {(student, lesson): status_of(root, snapshot, student, lesson, limit)
            for student in everyone(root, snapshot, roster_ids) for lesson in (lessons or snapshot.lessons)}


def lessons_in_play(root: str, snapshot) -> list[str]:
    """The lessons released (in the gradebook) that anything was collected or graded for, in course
    order: what export, report and feedback cover unless told which."""
    from . import upload_record as collected, lms_ids
    found = {lesson for _, lesson, _ in lms_ids.read_all(root)} | {lesson for _, lesson in collected.read_all(root)}
    found |= {lesson for _, lesson in snapshot.submissions}
    for folder in ("submitted", LEDGER):
        base = os.path.join(root, folder)
        for student in os.listdir(base) if os.path.isdir(base) else []:
            if os.path.isdir(os.path.join(base, student)):
                found |= set(os.listdir(os.path.join(base, student)))
    return [lesson for lesson in snapshot.lessons if lesson in found]


def unchanged_failures(course, jobs, force: bool = False):
    """``jobs`` without those whose file failed before for what it holds and has not changed since;
    those come back as ((lesson, student), why), unless ``force``."""
    if force:
        return list(jobs), []
    todo, failing = [], []
    for lesson, student in jobs:
        why = fails_as_it_is(course.root, student, lesson)
        if why:
            failing.append(((lesson, student), why))
        else:
            todo.append((lesson, student))
    return todo, failing
