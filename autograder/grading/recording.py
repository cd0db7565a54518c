"""The single writer: records what the workers graded, many submissions per transaction.

Workers only compute; this recorder, in the command's own process, is the one writer of
``autograded/`` and the gradebook, so SQLite keeps its single writer at any number of workers. It
writes what nbgrader's ``autograde`` writes, the same rows and the same files, and a test compares
the two row by row. nbgrader's own converter opens the gradebook about ten times and commits once
per cell of each submission (over 100 ms of this process's CPU each, the bound of a large batch);
here a batch of submissions is one transaction, on one session, with the assignment's cells read
once. Per submission, in nbgrader's order:

1. ``write_files``: what autograde's converter writes: ``autograded/<student>/<lesson>/`` made anew,
   the submission's other files, the assignment's own files from ``source/``, each graded notebook
   as the worker wrote it, nbgrader's permissions; its pre- and post-convert hooks around that;
2. ``Autograde.init_assignment``'s rows: the student, the submission with its timestamp (a new one
   mirrors the assignment: a grade per graded cell, a comment per answer cell), zeroes for the
   notebooks not submitted;
3. ``SaveAutoGrades``: each graded cell's auto score and whether it needs a manual grade (a hand
   grade kept), each answer cell's "No response." comment;
4. ``AssignLatePenalties``: each notebook's late penalty, by the configured plugin.

A batch whose transaction fails is recorded again one submission at a time, so one bad submission
costs only itself.
"""
import os
import shutil
from dataclasses import dataclass

from nbgrader import utils
from nbgrader.api import Comment, Grade, Gradebook, Student, SubmittedAssignment, SubmittedNotebook
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import AssignLatePenalties
from sqlalchemy.orm import selectinload

import nbformat

from .gradebook_engines import share_engines
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
        share_engines()
        self.course = course
        self.coursedir = CourseDirectory(config=course.config)
        self.converter = Autograde(coursedir=self.coursedir, config=course.config)  # its settings and hooks
        self.late = AssignLatePenalties(config=course.config)
        self.late.init_plugin()
        self.gradebook = Gradebook(self.coursedir.db_url, self.coursedir.course_id)
        self.session = self.gradebook.db
        self._assignments: dict[str, _Assignment] = {}

    def close(self) -> None:
        self.gradebook.close()

    def record(self, executed: Executed) -> str | None:
        """Store one executed submission; the reason it could not be stored, else None."""
        return self.record_batch([executed])[(executed.lesson, executed.student)]

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
                    why[(executed.lesson, executed.student)] = f"{type(error).__name__}: {error}".splitlines()[0]
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
        ignore = self.coursedir.ignore + ["*.ipynb"]
        master = self.coursedir.format_path(self.coursedir.source_directory, ".", executed.lesson)
        excluded = {os.path.join(master, x) for x in self.converter.exclude_overwriting.get(executed.lesson, [])}
        for top, files in ((source, utils.find_all_files(source, ignore)),
                           (master, set(utils.find_all_files(master, ignore)) - excluded)):
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
        if not batch:
            return
        students = {e.student for e in batch}
        known = {s for (s,) in self.session.query(Student.id).filter(Student.id.in_(students))}
        self.session.add_all(Student(id=s) for s in sorted(students - known))
        existing = {(s.assignment_id, s.student_id): s for s in self.session.query(SubmittedAssignment)
                    .filter(SubmittedAssignment.student_id.in_(students))
                    .options(selectinload(SubmittedAssignment.notebooks).selectinload(SubmittedNotebook.grades),
                             selectinload(SubmittedAssignment.notebooks).selectinload(SubmittedNotebook.comments))}
        late = []
        for executed in batch:
            assignment = self.assignment(executed.lesson)
            submission = existing.get((assignment.id, executed.student)) or self._new_submission(assignment, executed)
            timestamp = self.coursedir.get_existing_timestamp(
                self.course.path("submitted", executed.student, executed.lesson))
            if timestamp:
                submission.timestamp = utils.parse_utc(timestamp)
            notebooks = {n.notebook_id: n for n in submission.notebooks}
            for name, expected in assignment.notebooks.items():
                notebook = notebooks[expected.id]
                if name in executed.notebooks:
                    self._save_auto_grades(notebook, expected, nbformat.v4.reads(executed.notebooks[name]))
                elif not os.path.exists(os.path.join(self.course.path("submitted", executed.student,
                                                                      executed.lesson), f"{name}.ipynb")):
                    for grade in notebook.grades:  # not submitted: zero, as autograde gives it
                        grade.auto_score, grade.needs_manual_grade = 0, False
                if name in executed.notebooks:
                    notebook.late_submission_penalty = None
                    if _seconds_late(submission, assignment) > 0:
                        late.append((executed, submission, notebook))
        if late:
            self._assign_late_penalties(late, assignment)

    def _new_submission(self, assignment: _Assignment, executed: Executed) -> SubmittedAssignment:
        """What ``Gradebook.add_submission`` creates: the assignment's structure, empty."""
        submission = SubmittedAssignment(assignment_id=assignment.id, student_id=executed.student)
        for notebook in assignment.notebooks.values():
            submitted = SubmittedNotebook(notebook_id=notebook.id, assignment=submission)
            submitted.grades = [Grade(cell_id=cell) for cell in notebook.grade_cells.values()]
            submitted.comments = [Comment(cell_id=cell) for cell in notebook.comment_cells.values()]
        self.session.add(submission)
        return submission

    @staticmethod
    def _save_auto_grades(submitted: SubmittedNotebook, expected: _Notebook, graded) -> None:
        """``SaveAutoGrades`` on one notebook: its ``_add_score`` and ``_add_comment``, cell by cell."""
        grades = {grade.cell_id: grade for grade in submitted.grades}
        comments = {comment.cell_id: comment for comment in submitted.comments}
        for cell in graded.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if utils.is_grade(cell):
                grade = grades[expected.grade_cells[grade_id]]
                grade.auto_score, _ = utils.determine_grade(cell)
                grade.needs_manual_grade = grade.manual_score is not None or grade.auto_score is None
            if utils.is_solution(cell) or utils.is_task(cell):
                comment = comments[expected.comment_cells[grade_id]]
                unchanged = cell.metadata.nbgrader.get("checksum", None) == utils.compute_checksum(cell)
                comment.auto_comment = "No response." if unchanged and not utils.is_task(cell) else None

    def _assign_late_penalties(self, late: list, assignment) -> None:
        """``AssignLatePenalties`` for the late notebooks: their scores are SQL, so flushed first."""
        self.session.flush()
        for executed, submission, notebook in late:
            self.session.expire(notebook, ["score"])
            penalty = self.late.plugin_inst.late_submission_penalty(
                executed.student, notebook.score, _seconds_late(submission, self.assignment(executed.lesson)))
            if penalty is not None:
                penalty = self.late._check_late_penalty(notebook, penalty)
            notebook.late_submission_penalty = penalty


def _seconds_late(submission: SubmittedAssignment, assignment: _Assignment) -> float:
    """``SubmittedAssignment.total_seconds_late``, from the cached due date."""
    due = assignment.duedate
    if submission.extension is not None and due is not None:
        due = due + submission.extension
    if submission.timestamp is None or due is None:
        return 0
    return max(0, (submission.timestamp - due).total_seconds())
