"""The single writer: records what the workers graded, many submissions per transaction.

Workers only compute; this recorder, in the command's own process, is the one writer of
``autograded/`` and the gradebook, so SQLite keeps its single writer at any number of workers. It
writes what nbgrader's ``autograde`` writes, the same rows and the same files, and a test compares
the two row by row. nbgrader's own converter opens the gradebook about ten times and commits once
per cell of each submission, and this process's CPU is what bounds a large batch; here a batch of
submissions is one transaction, on one session, with the assignment's cells read once. Per
submission, in nbgrader's order:

1. ``write_files``: what autograde's converter writes: ``autograded/<student>/<lesson>/`` made anew,
   the submission's other files, the assignment's own files from ``source/``, each graded notebook
   as the worker wrote it, nbgrader's permissions; its pre- and post-convert hooks around that;
2. ``Autograde.init_assignment``'s rows: the student, the submission with its timestamp (a new one
   mirrors the assignment: a grade per graded cell, a comment per answer cell), zeroes for the
   notebooks not submitted;
3. ``SaveAutoGrades``: each graded cell's auto score and whether it needs a manual grade (a hand
   grade kept), each answer cell's "No response." comment, from what the worker read of the
   notebook (``autograde_steps.cell_results``; read here from the text if the worker sent none);
4. ``AssignLatePenalties``: each notebook's late penalty, by the configured plugin.

New submissions, the bulk of a batch, are inserted as rows, many per statement; a regraded one is
updated through nbgrader's own objects, which see its hand grades.

A batch whose transaction fails is recorded again one submission at a time, so one bad submission
costs only itself.
"""
import os
import shutil
from dataclasses import dataclass, field

from nbgrader import utils
from nbgrader.api import Base, Gradebook, Student, SubmittedAssignment, SubmittedNotebook, new_uuid
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import AssignLatePenalties
from sqlalchemy.orm import selectinload

import nbformat

from .. import library_patches
from ..kernels.settings import GradingKernels
from .own_files import find_own_files
from .autograde_steps import cell_results
from .worker import Executed, digest

CHANGED = "the submission changed while it was being graded: grade it again"


@dataclass
class _Notebook:
    """One notebook of the assignment, as ids: the cached ORM objects would expire at every commit."""
    id: str
    grade_cells: dict  # grade id -> cell id (graded cells and task cells)
    comment_cells: dict  # grade id -> cell id (answer cells and task cells)


@dataclass
class _Assignment:
    id: str
    duedate: object
    notebooks: dict  # name -> _Notebook


class Recorder:
    """Records executed submissions into the course's gradebook and ``autograded/``."""

    def __init__(self, course):
        library_patches.switch(GradingKernels.of(course.config).library_patches, ["gradebook_engines"])
        self.course = course
        self.coursedir = CourseDirectory(config=course.config)
        self.converter = Autograde(coursedir=self.coursedir, config=course.config)  # its settings and hooks
        self.late = AssignLatePenalties(config=course.config)
        self.late.init_plugin()
        self.gradebook = Gradebook(self.coursedir.db_url, self.coursedir.course_id)
        self.session = self.gradebook.db
        self._assignments: dict[str, _Assignment] = {}
        self._masters: dict[str, list[str]] = {}

    def close(self) -> None:
        self.gradebook.close()

    def record_batch(self, batch: list[Executed]) -> dict[tuple[str, str], str | None]:
        """Store many in one transaction; for each (lesson, student), why it was not stored, else None."""
        why = {(e.lesson, e.student): self._refusal(e) for e in batch}
        ready = [e for e in batch if why[(e.lesson, e.student)] is None]
        try:
            for executed in ready:
                self.write_files(executed)
            self._store_rows(ready)
            self.session.commit()
        except Exception as error:
            self.session.rollback()
            if len(ready) <= 1:
                for executed in ready:
                    self._discard_files(executed)
                    why[(executed.lesson, executed.student)] = f"{type(error).__name__}: {str(error).strip()}"
                return why
            for executed in ready:  # one at a time: the bad one costs only itself
                why.update(self.record_batch([executed]))
            return why
        for executed in ready:
            self._run_hook(self.converter.post_convert_hook, executed)
        return why

    # --- what each submission needs before it is written ----------------------------------------

    def _refusal(self, executed: Executed) -> str | None:
        if executed.error:
            return executed.error
        submitted = self.course.path("submitted", executed.student, executed.lesson)
        for name, graded in executed.digests.items():
            path = os.path.join(submitted, f"{name}.ipynb")
            if not os.path.exists(path) or digest(path) != graded:
                return CHANGED
        if not self.converter.create_student and not self.session.get(Student, executed.student):
            return f"No student with ID '{executed.student}' exists in the database"
        return None

    def assignment(self, lesson: str) -> _Assignment:
        """The lesson's ids, read once per recorder."""
        if lesson not in self._assignments:
            found = self.gradebook.find_assignment(lesson)
            self._assignments[lesson] = _Assignment(found.id, found.duedate, {
                notebook.name: _Notebook(
                    notebook.id,
                    {c.name: c.id for c in [*notebook.grade_cells, *notebook.task_cells]},
                    {c.name: c.id for c in [*notebook.solution_cells, *notebook.task_cells]})
                for notebook in found.notebooks})
        return self._assignments[lesson]

    # --- 1. files ----------------------------------------------------------------------------------

    def _destination(self, executed: Executed) -> str:
        return self.coursedir.format_path(self.coursedir.autograded_directory, executed.student, executed.lesson)

    def write_files(self, executed: Executed) -> None:
        source = self.coursedir.format_path(self.coursedir.submitted_directory, executed.student, executed.lesson)
        dest = self._destination(executed)
        self._run_hook(self.converter.pre_convert_hook, executed)
        if os.path.exists(dest):
            utils.rmtree(dest)
        os.makedirs(dest)
        master = self.coursedir.format_path(self.coursedir.source_directory, ".", executed.lesson)
        for top, files in ((source, find_own_files(source, self._ignored)), (master, self._master_files(master))):
            for path in files:
                target = os.path.join(dest, os.path.relpath(path, top))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                if os.path.exists(target):
                    os.remove(target)
                shutil.copy(path, target)
        for name, text in executed.notebooks.items():
            with open(os.path.join(dest, f"{name}.ipynb"), "w", encoding="utf-8") as handle:
                handle.write(text)
        self.converter.set_permissions(executed.lesson, executed.student)

    @property
    def _ignored(self) -> list[str]:
        return self.coursedir.ignore + ["*.ipynb"]

    def _master_files(self, master: str) -> list[str]:
        """The assignment's own files besides its notebooks, which overwrite the student's: read once."""
        if master not in self._masters:
            lesson = os.path.basename(os.path.normpath(master))
            excluded = {os.path.join(master, x) for x in self.converter.exclude_overwriting.get(lesson, [])}
            self._masters[master] = sorted(set(utils.find_all_files(master, self._ignored)) - excluded)
        return self._masters[master]

    def _discard_files(self, executed: Executed) -> None:
        if os.path.exists(self._destination(executed)):
            utils.rmtree(self._destination(executed))

    def _run_hook(self, hook, executed: Executed) -> None:
        if hook:
            submitted = self.course.path("submitted", executed.student, executed.lesson)
            hook(assignment=executed.lesson, student=executed.student,
                 notebooks=[os.path.join(submitted, f"{name}.ipynb") for name in sorted(executed.notebooks)])

    # --- 2-4. rows ---------------------------------------------------------------------------------

    def _store_rows(self, batch: list[Executed]) -> None:
        """New submissions are inserted as rows, many per statement; those recorded before (a regrade)
        are updated through nbgrader's objects, so that their hand grades are seen and kept."""
        if not batch:
            return
        students = {e.student for e in batch}
        known = {s for (s,) in self.session.query(Student.id).filter(Student.id.in_(students))}
        existing = {(s.assignment_id, s.student_id): s for s in self.session.query(SubmittedAssignment)
                    .filter(SubmittedAssignment.student_id.in_(students))
                    .options(selectinload(SubmittedAssignment.notebooks).selectinload(SubmittedNotebook.grades),
                             selectinload(SubmittedAssignment.notebooks).selectinload(SubmittedNotebook.comments))}
        rows = {"student": [{"id": s, "first_name": None, "last_name": None, "email": None, "lms_user_id": None}
                            for s in sorted(students - known)],
                "submitted_assignment": [], "submitted_notebook": [], "grade": [], "comment": []}
        late = []
        for executed in batch:
            assignment = self.assignment(executed.lesson)
            grading = self._grading(executed, assignment)
            timestamp = self.coursedir.get_existing_timestamp(
                self.course.path("submitted", executed.student, executed.lesson))
            timestamp = utils.parse_utc(timestamp) if timestamp else None
            submission = existing.get((assignment.id, executed.student))
            if submission is None:
                notebook_ids = _new_rows(rows, assignment, executed.student, timestamp, grading)
                extension = None
            else:
                notebook_ids = _update(submission, timestamp, grading)
                timestamp, extension = submission.timestamp, submission.extension
            seconds_late = _seconds_late(timestamp, extension, assignment.duedate)
            if seconds_late > 0:
                late += [(executed.student, seconds_late, notebook_ids[n]) for n, g in grading.items() if g.graded]
        self.session.flush()
        for table, values in rows.items():
            if values:
                self.session.execute(Base.metadata.tables[table].insert(), values)
        if late:
            self._assign_late_penalties(late)

    def _grading(self, executed: Executed, assignment: _Assignment) -> dict:
        """What autograde sets in each notebook of the assignment: ``SaveAutoGrades``' scores and
        comments for the graded ones, zeroes for the ones not submitted. By notebook id."""
        grading = {}
        for name, expected in assignment.notebooks.items():
            if name not in executed.notebooks:
                grading[expected.id] = _Grading(graded=False)
                continue
            results = executed.results[name] if name in executed.results else \
                cell_results(nbformat.v4.reads(executed.notebooks[name]))
            unknown = sorted(set(results) - set(expected.grade_cells) - set(expected.comment_cells))
            if unknown:
                raise LookupError(f"No such grade cell in {executed.lesson}: {unknown[0]}")
            grading[expected.id] = _Grading(
                True, {expected.grade_cells[g]: r["auto_score"] for g, r in results.items() if "auto_score" in r},
                {expected.comment_cells[g]: r["auto_comment"] for g, r in results.items() if "auto_comment" in r})
        return grading

    def _assign_late_penalties(self, late: list) -> None:
        """``AssignLatePenalties`` for the late notebooks, with their scores as the database computes them."""
        self.session.flush()
        notebooks = {n.id: n for n in self.session.query(SubmittedNotebook).populate_existing()
                     .filter(SubmittedNotebook.id.in_([notebook_id for _, _, notebook_id in late]))}
        for student, seconds_late, notebook_id in late:
            notebook = notebooks[notebook_id]
            penalty = self.late.plugin_inst.late_submission_penalty(student, notebook.score, seconds_late)
            if penalty is not None:
                penalty = self.late._check_late_penalty(notebook, penalty)
            notebook.late_submission_penalty = penalty


@dataclass
class _Grading:
    """One notebook's part of a submission: graded (its cells' results by cell id), or not submitted."""
    graded: bool
    scores: dict = field(default_factory=dict)  # cell id -> auto score
    comments: dict = field(default_factory=dict)  # cell id -> auto comment


def _new_rows(rows: dict, assignment: _Assignment, student: str, timestamp, grading: dict) -> dict:
    """The rows ``Gradebook.add_submission`` creates, filled in as autograde fills them; the new
    submitted notebooks' ids, by notebook id."""
    submission = new_uuid()
    rows["submitted_assignment"].append({"id": submission, "assignment_id": assignment.id, "student_id": student,
                                         "timestamp": timestamp, "extension": None})
    ids = {}
    for notebook in assignment.notebooks.values():
        done, ids[notebook.id] = grading[notebook.id], new_uuid()
        rows["submitted_notebook"].append({"id": ids[notebook.id], "assignment_id": submission,
                                           "notebook_id": notebook.id, "flagged": False,
                                           "late_submission_penalty": None})
        for cell in notebook.grade_cells.values():
            score = done.scores.get(cell) if done.graded else 0
            rows["grade"].append({"id": new_uuid(), "notebook_id": ids[notebook.id], "cell_id": cell,
                                  "auto_score": score, "manual_score": None, "extra_credit": None,
                                  "needs_manual_grade": score is None})
        for cell in notebook.comment_cells.values():
            rows["comment"].append({"id": new_uuid(), "notebook_id": ids[notebook.id], "cell_id": cell,
                                    "auto_comment": done.comments.get(cell), "manual_comment": None})
    return ids


def _update(submission: SubmittedAssignment, timestamp, grading: dict) -> dict:
    """A submission recorded before, graded again as autograde grades it again; its notebooks' ids."""
    if timestamp:
        submission.timestamp = timestamp
    ids = {}
    for notebook in submission.notebooks:
        done, ids[notebook.notebook_id] = grading[notebook.notebook_id], notebook.id
        for grade in notebook.grades:
            if not done.graded:
                grade.auto_score, grade.needs_manual_grade = 0, False
            elif grade.cell_id in done.scores:
                grade.auto_score = done.scores[grade.cell_id]
                # a hand grade, or no automatic score: a grader must look at it
                grade.needs_manual_grade = grade.manual_score is not None or grade.auto_score is None
        for comment in notebook.comments:
            if done.graded and comment.cell_id in done.comments:
                comment.auto_comment = done.comments[comment.cell_id]
        if done.graded:
            notebook.late_submission_penalty = None
    return ids


def _seconds_late(timestamp, extension, duedate) -> float:
    """``SubmittedAssignment.total_seconds_late``, from values at hand."""
    if extension is not None and duedate is not None:
        duedate = duedate + extension
    if timestamp is None or duedate is None:
        return 0
    return max(0, (timestamp - duedate).total_seconds())
