"""Grades out of nbgrader's gradebook as CSV files: for the instructor, for Canvas and for Moodle.

``autograd-course export`` writes these files into one folder:

- ``grades.csv``: one row per student and lesson (every student of the roster, of the gradebook
  and of submitted/), with its status (``status.py``: graded, waiting for hand grading, hand
  grade to check, could not be graded and why, not graded yet, missing), the lesson's score split
  into the autograded part (test cells) and the part graded by hand (written answers), the student's
  due date (``extension`` says where an extension comes from) and how late it was ("late, time
  unknown" where the LMS said only late), and the group whose notebook it is. Written answers count
  once they are graded, as in nbgrader.
- ``exercises.csv``: the same rows with the status, one column per graded cell, so a
  spreadsheet can sort by any exercise. A blank cell has no points yet.
- ``canvas.csv``: Canvas's gradebook import format (see :func:`export_canvas`).
- ``moodle/<lesson>.csv``: each lesson's Moodle grading worksheet, for every lesson collected from
  a Moodle download (see :func:`write_moodle`), and ``moodle/<lesson>-feedback.zip``, its feedback
  pages for Moodle's "Upload multiple feedback files in a zip" (``moodle_feedback.py``);
- ``canvas/<lesson>-feedback.zip``: the feedback pages of the students collected from Canvas, for the
  assignment's "Re-Upload Submissions" (``canvas_feedback.py``); only pages still true to their
  submission go into either archive;
- with ``--into FILE``, a copy of the LMS's own gradebook file with the scores filled in (``lms_files.py``).

Everything is read from the gradebook once (:func:`read_gradebook`), so the files always agree
with each other.
"""
import csv
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ...course_dir import open_api
from ..records import upload_record as collected, groups, lms_ids
from ..collect import moodle_worksheet
from . import late_penalties
from . import canvas_feedback, moodle_feedback
from .lms_files import fill_lms_file
from ..lms_settings import canvas_assignments
from .score_text import points
from ..records.status import GRADED, MISSING, NOT_YET, Status, class_status, lessons_in_play


@dataclass(frozen=True)
class GradedCell:
    """A cell that earns points: an autograded test, or a written answer graded by hand."""
    name: str  # nbgrader grade_id
    max_score: float
    by_hand: bool


@dataclass(frozen=True)
class StudentRecord:
    id: str
    first_name: str = ""
    last_name: str = ""
    lms_user_id: str = ""

    @property
    def sortable_name(self) -> str:
        """"Last, First" as Canvas writes names, or the id when the gradebook has no name."""
        if self.last_name and self.first_name:
            return f"{self.last_name}, {self.first_name}"
        return self.last_name or self.first_name or self.id


@dataclass
class Submission:
    student: str
    lesson: str
    points: dict[str, float | None]  # grade_id -> points; None while nothing has scored that cell
    needs_manual_grade: bool
    late_penalty: float = 0.0
    changed_hand_grades: list[str] = field(default_factory=list)  # graded by hand, flagged again: answer changed
    ungraded_by_hand: list[str] = field(default_factory=list)     # waiting for a first hand grade
    due: str = ""        # the student's due date (UTC, ISO), theirs when they have an extension
    extension: str = ""  # where the student's own due date comes from ("extensions.csv", a Moodle worksheet)
    late: str = ""       # late_penalties.how_late: "", "late by 1 day 8 h", "late, time unknown"
    group: str = ""      # "group G, handed in by S" for a group's notebook (records/groups.py)


@dataclass
class GradebookSnapshot:
    """What the exports and the class report need from nbgrader's gradebook, read in one go."""
    lessons: dict[str, list[GradedCell]] = field(default_factory=dict)  # course order
    students: list[StudentRecord] = field(default_factory=list)
    submissions: dict[tuple[str, str], Submission] = field(default_factory=dict)  # (student, lesson)

    def max_score(self, lesson: str, by_hand: bool | None = None) -> float:
        return sum(c.max_score for c in self.lessons[lesson] if by_hand is None or c.by_hand == by_hand)

    def earned(self, submission: Submission, by_hand: bool | None = None) -> float:
        """Points earned so far; a cell nothing has scored counts 0, as nbgrader counts it."""
        return sum(submission.points.get(c.name) or 0.0 for c in self.lessons[submission.lesson]
                   if by_hand is None or c.by_hand == by_hand)

    def final_score(self, submission: Submission) -> float:
        return max(0.0, self.earned(submission) - submission.late_penalty)

    def only(self, lessons: list[str]) -> "GradebookSnapshot":
        """The same gradebook, seen through these lessons alone (course order kept)."""
        return GradebookSnapshot({lesson: cells for lesson, cells in self.lessons.items() if lesson in lessons},
                                 self.students, {key: sub for key, sub in self.submissions.items() if key[1] in lessons})


def _notebook_order(root: str, lesson: str) -> list[str]:
    """grade_ids in the order the source notebook shows them (the gradebook keeps no order)."""
    path = os.path.join(root, "source", lesson, f"{lesson}.ipynb")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        cells = json.load(handle).get("cells", [])
    return [c["metadata"]["nbgrader"]["grade_id"] for c in cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade_id")]


def _ordered(cells: list[GradedCell], order: list[str]) -> list[GradedCell]:
    rank = {name: i for i, name in enumerate(order)}
    return sorted(cells, key=lambda c: (rank.get(c.name, len(rank)), c.name))


def read_gradebook(root: str) -> GradebookSnapshot:
    from ...course_dir import load_config
    snapshot = GradebookSnapshot()
    config = load_config(root)
    unknown, extended = collected.late_time_unknown(root), late_penalties.extension_dates(root, config)
    teams = groups.read_all(root)
    with open_api(root, config).gradebook as gradebook:
        for assignment in sorted(gradebook.assignments, key=lambda a: a.name):
            cells = [GradedCell(cell.name, float(cell.max_score), by_hand=cell.cell_type == "markdown")
                     for notebook in assignment.notebooks for cell in notebook.grade_cells]
            cells += [GradedCell(cell.name, float(cell.max_score), by_hand=True)
                      for notebook in assignment.notebooks for cell in notebook.task_cells]
            snapshot.lessons[assignment.name] = _ordered(cells, _notebook_order(root, assignment.name))
            for submitted in gradebook.assignment_submissions(assignment.name):
                points = {grade.name: (None if grade.auto_score is None and grade.manual_score is None
                                       else float(grade.score))
                          for notebook in submitted.notebooks for grade in notebook.grades}
                flagged = [grade for notebook in submitted.notebooks for grade in notebook.grades
                           if grade.needs_manual_grade]
                snapshot.submissions[(submitted.student.id, assignment.name)] = Submission(
                    student=submitted.student.id, lesson=assignment.name, points=points,
                    needs_manual_grade=bool(submitted.needs_manual_grade),
                    late_penalty=float(submitted.late_submission_penalty or 0.0),
                    changed_hand_grades=sorted(g.name for g in flagged if g.manual_score is not None),
                    ungraded_by_hand=sorted(g.name for g in flagged if g.manual_score is None),
                    due=submitted.duedate.replace(tzinfo=timezone.utc).isoformat() if submitted.duedate else "",
                    extension=extended[(submitted.student.id, assignment.name)][1]
                    if submitted.extension is not None and (submitted.student.id, assignment.name) in extended else "",
                    late=late_penalties.how_late(submitted.total_seconds_late,
                                                 (submitted.student.id, assignment.name) in unknown,
                                                 submitted.duedate is not None),
                    group=teams[(submitted.student.id, assignment.name)].text
                    if (submitted.student.id, assignment.name) in teams else "")
        snapshot.students = [StudentRecord(s.id, s.first_name or "", s.last_name or "", s.lms_user_id or "")
                             for s in sorted(gradebook.students, key=lambda s: s.id)]
    return snapshot




def _write(path: str, header: list[str], rows: list[list]) -> int:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return len(rows)


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


GRADES_HEADER = ["student", "lesson", "status", "submitted", "score", "max_score", "autograded_score",
                 "autograded_max", "manual_score", "manual_max", "late_penalty", "manual_grading_pending", "why",
                 "due", "extension", "late", "group"]

Statuses = dict[tuple[str, str], Status]


def _students(statuses: Statuses) -> list[str]:
    return sorted({student for student, _ in statuses})


def write_grades(snapshot: GradebookSnapshot, path: str, statuses: Statuses) -> int:
    """One row per student (roster, gradebook or submitted/) and lesson, each with its ``status``.

    ``score`` is what the student has now: autograded + graded-by-hand points - late penalty.
    ``manual_grading_pending`` is nbgrader's own flag: a written answer not graded yet, or a
    cell graded by hand whose answer changed since. ``why`` says what the status means to do.
    """
    rows = []
    for student in _students(statuses):
        for lesson in snapshot.lessons:
            status = statuses[(student, lesson)]
            maxima = [points(snapshot.max_score(lesson)), points(snapshot.max_score(lesson, False))]
            sub = snapshot.submissions.get((student, lesson)) if status.state != NOT_YET else None  # stale
            handed_in = "no" if status.state == MISSING else "yes"
            if sub is None:
                rows.append([student, lesson, status.state, handed_in, "", maxima[0], "", maxima[1], "",
                             points(snapshot.max_score(lesson, True)), "", "", status.why, "", "", "", ""])
                continue
            rows.append([student, lesson, status.state, handed_in, points(snapshot.final_score(sub)), maxima[0],
                         points(snapshot.earned(sub, False)), maxima[1],
                         points(snapshot.earned(sub, True)), points(snapshot.max_score(lesson, True)),
                         points(sub.late_penalty), yes_no(sub.needs_manual_grade), status.why,
                         sub.due, sub.extension, sub.late, sub.group])
    return _write(path, GRADES_HEADER, rows)


def exercise_columns(snapshot: GradebookSnapshot) -> list[str]:
    """Every graded cell's grade_id, lesson by lesson in notebook order; a shared id shares a column."""
    columns = []
    for cells in snapshot.lessons.values():
        columns += [c.name for c in cells if c.name not in columns]
    return columns


def write_exercises(snapshot: GradebookSnapshot, path: str, statuses: Statuses) -> int:
    columns = exercise_columns(snapshot)
    rows = []
    for student in _students(statuses):
        for lesson, cells in snapshot.lessons.items():
            sub = snapshot.submissions.get((student, lesson)) if statuses[(student, lesson)].state != NOT_YET else None
            in_lesson = {c.name for c in cells}
            rows.append([student, lesson, statuses[(student, lesson)].state]
                        + [points(sub.points.get(name)) if sub and name in in_lesson else "" for name in columns])
    return _write(path, ["student", "lesson", "status"] + columns, rows)


# Canvas's gradebook import (canvas-lms app/models/gradebook_importer.rb) reads the layout of its
# own export: a header row whose first columns are Student, ID, then SIS User ID, SIS Login ID and
# Section; a row whose first cell says "Points Possible" (read for points, not as a student); then
# one row per student, found by ID (the Canvas user id), else SIS User ID, else SIS Login ID, else
# the name. Each further header is an assignment: "Title (id)" fills the assignment with that id;
# any other header is matched by exact title, else creates a new assignment. A blank cell changes
# nothing: Canvas shows only cells whose value differs from what it holds, and saves nothing until
# the instructor confirms.
CANVAS_STUDENT_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
CANVAS_POINTS_POSSIBLE = "    Points Possible"


@dataclass(frozen=True)
class RosterEntry:
    student_id: str
    login_id: str = ""
    canvas_id: str = ""
    name: str = ""
    section: str = ""
    sis_user_id: str = ""


def read_roster(path: str) -> dict[str, RosterEntry]:
    """nbgrader student id -> Canvas identity, from a CSV with ``student_id`` (and ``login_id``,
    ``canvas_id``, ``name``, ``section``, ``sis_user_id`` when the roster has them).

    Header names are case-insensitive, so the roster ``autograd-course collect`` reads works here too.
    """
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        header = [name.strip().lower() for name in next(reader, [])]
        if "student_id" not in header:
            raise ValueError(f"{path}: the roster needs a student_id column")
        roster = {}
        for row in reader:
            found = dict(zip(header, (cell.strip() for cell in row)))
            entry = RosterEntry(**{key: found.get(key, "") for key in RosterEntry.__dataclass_fields__})
            if entry.student_id:
                roster[entry.student_id] = entry
    return roster


def canvas_header(lesson: str, assignments: dict) -> str:
    """'Title (id)' from c.CanvasExport.assignments, as Canvas's own export names an assignment column."""
    entry = assignments.get(lesson)
    if not entry:
        return lesson
    title, canvas_id = entry
    return f"{title} ({int(canvas_id)})"


@dataclass
class CanvasExport:
    rows: int
    unmatched: list[str]  # students the roster does not name: left out of the file
    held_back: list[tuple[str, Status]]  # (student, status) left blank: not graded to the end
    unmapped: list[str]  # lessons with no Canvas assignment in c.CanvasExport.assignments
    header: list[str] = field(default_factory=list)


def write_canvas(snapshot: GradebookSnapshot, path: str, roster: dict[str, RosterEntry] | None,
                 statuses: Statuses, assignments: dict | None = None) -> CanvasExport:
    """Every student of the roster gets a row; a cell is filled only when the lesson is graded to the
    end, blank otherwise (missing, could not be graded, waiting for hand grading), which Canvas
    reads as "no change"."""
    assignments = assignments or {}
    lessons = list(snapshot.lessons)
    header = CANVAS_STUDENT_COLUMNS + [canvas_header(lesson, assignments) for lesson in lessons]
    rows = [[CANVAS_POINTS_POSSIBLE, "", "", "", ""] + [points(snapshot.max_score(lesson)) for lesson in lessons]]
    unmatched, held_back = [], []
    records = {s.id: s for s in snapshot.students}
    for student in _students(statuses):
        if roster is not None and student not in roster:
            unmatched.append(student)
            continue
        record = records.get(student, StudentRecord(student))
        entry = roster[student] if roster is not None else RosterEntry(student, student)
        scores = []
        for lesson in lessons:
            status = statuses[(student, lesson)]
            sub = snapshot.submissions.get((student, lesson))
            if status.state == GRADED and sub is not None:
                scores.append(points(snapshot.final_score(sub)))
                continue
            if status.state != MISSING:
                held_back.append((f"{student} {lesson}", status))
            scores.append("")
        rows.append([entry.name or record.sortable_name, entry.canvas_id or record.lms_user_id,
                     entry.sis_user_id, entry.login_id, entry.section] + scores)
    _write(path, header, rows)
    return CanvasExport(rows=len(rows) - 1, unmatched=unmatched, held_back=held_back,
                        unmapped=[lesson for lesson in lessons if lesson not in assignments], header=header)


# Moodle's assignment grading worksheet (mod/assign/feedback/offline, "Upload grading worksheet"). Its
# importer finds three columns by their English names: "Identifier" ("Participant <id>", the student's
# participant id in this assignment), "Grade" and "Last modified (grade)". A blank grade, or one above
# the assignment's Maximum grade, changes nothing; a grade changed in Moodle after "Last modified
# (grade)" is kept unless the instructor ticks "Allow updating records that have been modified more
# recently in Moodle than in the spreadsheet". Its other columns are for the reader.
MOODLE_HEADER = [moodle_worksheet.IDENTIFIER, "Full name", "Grade", "Maximum Grade", "Last modified (grade)"]


@dataclass
class MoodleWorksheet:
    lesson: str
    path: str
    rows: int
    graded: int
    maximum: float  # the Moodle assignment's Maximum grade the grades are given on
    held_back: list[tuple[str, Status]] = field(default_factory=list)  # left blank: not graded to the end


def write_moodle(snapshot: GradebookSnapshot, folder: str, statuses: Statuses, ids: dict[str, dict[str, str]],
                 maximum_grades: dict, names: dict[str, str], now: datetime) -> list[MoodleWorksheet]:
    """One worksheet per lesson that has Moodle participant ids (``lms_ids``), a row per participant.

    The grade is the final score (late penalty included) on the assignment's Maximum grade from
    ``maximum_grades``, or in points; it is blank unless the lesson is graded to the end.
    """
    stamp = now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")  # read by PHP's strtotime
    sheets = []
    for lesson in snapshot.lessons:
        if not ids.get(lesson):
            continue
        possible = snapshot.max_score(lesson)
        maximum = float(maximum_grades.get(lesson, possible))
        sheet = MoodleWorksheet(lesson, os.path.join(folder, f"{lesson}.csv"), 0, 0, maximum)
        rows = []
        for student, participant in sorted(ids[lesson].items(), key=lambda item: (len(item[1]), item[1])):
            status, sub = statuses.get((student, lesson)), snapshot.submissions.get((student, lesson))
            grade = ""
            if status is not None and status.state == GRADED and sub is not None and possible:
                grade = points(snapshot.final_score(sub) * maximum / possible)
                sheet.graded += 1
            elif status is not None:
                sheet.held_back.append((student, status))
            rows.append([moodle_worksheet.PARTICIPANT + participant, names.get(student, student), grade, points(maximum), stamp])
        sheet.rows = _write(sheet.path, MOODLE_HEADER, rows)
        sheets.append(sheet)
    return sheets


def _full_names(snapshot: GradebookSnapshot, roster: dict[str, "RosterEntry"] | None) -> dict[str, str]:
    names = {s.id: " ".join(filter(None, [s.first_name, s.last_name])) or s.id for s in snapshot.students}
    names.update({student: entry.name for student, entry in (roster or {}).items() if entry.name})
    return names


def moodle_maximum_grades(root: str) -> dict:
    from ..lms_settings import MoodleExport as Settings, course_config
    return dict(Settings(config=course_config(root)).maximum_grades)


def _statuses(root: str, snapshot: GradebookSnapshot, roster: dict | None) -> Statuses:
    return class_status(root, snapshot, list(roster or {}), list(snapshot.lessons))


def export_grades(root: str, path: str) -> int:
    snapshot = read_gradebook(root)
    return write_grades(snapshot, path, _statuses(root, snapshot, None))


def export_exercises(root: str, path: str) -> int:
    snapshot = read_gradebook(root)
    return write_exercises(snapshot, path, _statuses(root, snapshot, None))




def export_canvas(root: str, path: str, roster: str | None = None) -> CanvasExport:
    """Write a CSV for Canvas: Grades > Import, one column per lesson named as c.CanvasExport.assignments says.

    With ``roster`` (``student_id`` and any of ``canvas_id``, ``login_id``, ``name``, ``section``,
    ``sis_user_id``), every roster student gets a row, and students the roster does not list are
    left out (``unmatched``). Without a roster the nbgrader student id is taken as the login id.
    """
    snapshot = read_gradebook(root)
    people = read_roster(roster) if roster else None
    return write_canvas(snapshot, path, people, _statuses(root, snapshot, people), canvas_assignments(root))


def chosen_lessons(root: str, snapshot: GradebookSnapshot, asked: list[str] | None) -> list[str]:
    """The lessons asked for (each must be in the gradebook), else those released and collected."""
    unknown = [lesson for lesson in asked or [] if lesson not in snapshot.lessons]
    if unknown:
        raise ValueError(f"not in the gradebook: {', '.join(unknown)} (it has {', '.join(snapshot.lessons)})")
    return list(asked) if asked else lessons_in_play(root, snapshot)


def canvas_wanted(root: str) -> bool:
    """canvas.csv is written for a Canvas course: collected from Canvas, Canvas assignments configured,
    or collected from folders alone (no LMS said otherwise)."""
    used = collected.readers_used(root) - {"lesson-folders", "student-folders"}
    return any(name.startswith("canvas") for name in used) or bool(canvas_assignments(root)) or not used


def _print_files(args, grades: int, exercises: int, canvas: "CanvasExport | None", sheets, maxima) -> None:
    print(f"wrote {grades} rows to {os.path.join(args.out, 'grades.csv')}")
    print(f"wrote {exercises} rows to {os.path.join(args.out, 'exercises.csv')}")
    if canvas is not None:
        print(f"wrote {canvas.rows} students to {os.path.join(args.out, 'canvas.csv')}: {', '.join(canvas.header[5:])}")
    for sheet in sheets:
        scale = (f"grades out of {points(sheet.maximum)}, c.MoodleExport.maximum_grades" if sheet.lesson in maxima
                 else f"grades in points: set the Moodle assignment's Maximum grade to {points(sheet.maximum)}, "
                      "or give it in c.MoodleExport.maximum_grades")
        print(f"wrote {sheet.rows} Moodle participants to {sheet.path} ({sheet.graded} graded; {scale}); "
              "upload it with the assignment's grading action Upload grading worksheet")


def _print_blanks(args, statuses: Statuses, canvas: "CanvasExport | None", sheets, filled) -> None:
    counts = Counter(status.state for status in statuses.values())
    print("status of every student and lesson: " + ", ".join(f"{n} {state}" for state, n in sorted(counts.items())))
    blanks: dict[str, tuple[Status, list[str]]] = {}
    for who, status in canvas.held_back if canvas else []:
        blanks.setdefault(who, (status, []))[1].append("Canvas")
    for sheet in sheets:
        for student, status in sheet.held_back:
            blanks.setdefault(f"{student} {sheet.lesson}", (status, []))[1].append("Moodle")
    for into in filled:
        for student, lesson, status in into.held_back:
            blanks.setdefault(f"{student} {lesson}", (status, []))[1].append(os.path.basename(into.path))
    for who, (status, places) in sorted(blanks.items()):
        shown = f"{status.state}: {status.summary}" if status.summary else status.state
        print(f"  {who}: left blank for {' and '.join(dict.fromkeys(places))}, {shown}")
    for lesson in canvas.unmapped if canvas else []:
        print(f"  {lesson}: no Canvas assignment in c.CanvasExport.assignments (nbgrader_config.py); its column "
              "is named by the lesson, and Canvas will make it a new assignment")
    for student in canvas.unmatched if canvas else []:
        print(f"  {student}: not in the roster {args.roster}, left out of canvas.csv")


def _return_feedback(root: str, out: str, snapshot, statuses: Statuses, lessons: list[str]) -> None:
    """Each LMS's feedback archive, of current pages only: a page older than its submission's grading
    (a resubmission, a hand grade since) stays out until ``feedback`` writes it again."""
    from ..records import feedback_pages
    current = feedback_pages.current(root, snapshot, statuses)
    stale = sorted(key for key in map(tuple, feedback_pages.written(root)) if key not in current and key[1] in lessons)
    zips = moodle_feedback.write_feedback_zips(os.path.join(out, "moodle"), lms_ids.ids_of(root, "moodle"),
                                               lessons, current)
    for lesson, (path, pages) in zips.items():
        print(f"wrote {pages} feedback page(s) to {path}: upload it with the assignment's grading action "
              "Upload multiple feedback files in a zip")
    shared = {key for key, work in groups.read_all(root).items() if work.handed_in_by != key[0]}
    sources = {key: upload.source for key, upload in collected.read_all(root).items()  # Canvas comments a
               if upload.lms == "canvas" and key not in shared}                       # group's file to all

    canvas = canvas_feedback.write_feedback_zips(os.path.join(out, "canvas"), sources, lessons, current)
    for lesson, (path, pages) in canvas.items():
        print(f"wrote {pages} feedback page(s) to {path}: upload it on the Canvas assignment's page with "
              "Re-Upload Submissions (each becomes a comment on the student's submission)")
    returned = [lesson for lesson in lessons if lesson in zips or lesson in canvas]
    feedback_pages.mark_returned(root, {key: page for key, page in current.items() if key.lesson in returned}, returned)
    for student, lesson in stale:
        print(f"  {student} {lesson}: feedback page left out of every archive, it no longer fits the submission "
              f"({statuses.get((student, lesson), Status(MISSING)).text}): run autograd-course feedback")


def run(args) -> int:
    """Write the CSVs; exit 1 if a student is missing from the roster, 2 if the roster is unusable."""
    root = getattr(args, "root", ".")
    try:
        roster = read_roster(args.roster) if args.roster else None
        settled = late_penalties.settle(root)
        whole = read_gradebook(root)
        lessons = chosen_lessons(root, whole, getattr(args, "lessons", None))
    except (OSError, ValueError) as problem:
        print(f"export: {problem}")
        return 2
    snapshot = whole.only(lessons)
    statuses = _statuses(root, snapshot, roster)
    os.makedirs(args.out, exist_ok=True)
    grades = write_grades(snapshot, os.path.join(args.out, "grades.csv"), statuses)
    exercises = write_exercises(snapshot, os.path.join(args.out, "exercises.csv"), statuses)
    canvas = (write_canvas(snapshot, os.path.join(args.out, "canvas.csv"), roster, statuses, canvas_assignments(root))
              if canvas_wanted(root) else None)
    maxima = moodle_maximum_grades(root)
    sheets = write_moodle(snapshot, os.path.join(args.out, "moodle"), statuses, lms_ids.ids_of(root, "moodle"),
                          maxima, _full_names(snapshot, roster), datetime.now(timezone.utc))
    print(f"lessons: {', '.join(lessons) or 'none collected yet'}"
          + (f"; {settled} late penalty(ies) worked out again on today's scores" if settled else ""))
    _print_files(args, grades, exercises, canvas, sheets, maxima)
    _return_feedback(root, args.out, snapshot, statuses, lessons)
    filled, code = [], 0
    for path in getattr(args, "into", []):
        try:
            into = fill_lms_file(path, args.out, snapshot, statuses, args.roster, root)
        except (OSError, ValueError, csv.Error) as problem:
            print(f"export --into {path}: {problem}")
            code = 2
            continue
        filled.append(into)
        print("\n".join(into.lines()))
    _print_blanks(args, statuses, canvas, sheets, filled)
    return code or (1 if canvas and canvas.unmatched else 0)
