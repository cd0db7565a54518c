"""Put an LMS bulk download into nbgrader's ``submitted/<student>/<lesson>/<lesson>.ipynb``.

Canvas, Moodle, Blackboard and D2L Brightspace each hand the instructor a download of every
submission, each naming the files its own way: one reader per LMS in ``lms/`` says whose file it is,
for which lesson, which attempt and when. ``collect`` keeps each student's latest notebook and places
it where ``autograd-course grade`` looks. Every other file gets one line saying what became of it,
and every upload a student made is kept, so nothing is lost silently.

Roster CSV (``--roster``): header names are case-insensitive and only ``student_id`` is required.

    student_id  the folder name under submitted/ (and so the gradebook id) everything resolves to
    canvas_id   Canvas user id: the number after the name in Canvas file names
    canvas_anonymous_id
                the anonymous ids of the student's submissions (the "anon_<id>" of an anonymously
                graded assignment's file names; one per assignment, separated by spaces). Without
                it such files are placed as student anon_<id> (blind), or with a roster not at all
    moodle_id   Moodle participant ids: the number after the full name (or "Participant" under blind
                marking) in Moodle folder names, listed as "Participant <id>" in the assignment's grading
                worksheet. Moodle gives each student a new one in every assignment: list them all,
                separated by spaces. Without a roster a Moodle file is placed under that number, so
                one student's lessons land under different ids
    d2l_id      D2L Brightspace user id: the second number of "subid-userid - Name - ..." file names
    username    Blackboard username (as its receipts name it), or the folder name of a per-student folder
    login_id    institutional login (Canvas "SIS Login ID"), matched like username
    email       matched whole, or by the part before the @
    name        "First Last" or "Last, First"; tried only when no id matched (Canvas, Moodle, D2L, folders)
    first_name, last_name
                given to the gradebook with the student, so formgrader shows names

Choices made here:
- A notebook that is not valid JSON/nbformat is still placed, and listed as unreadable: grading then
  tells the student their file could not be read, which is what they need to hear.
- An upload that is not a notebook (a PDF, an HTML export) is kept in ``ungraded/<student>/<lesson>/
  uploads/``. When it is all the student handed in for the lesson, its reason is kept in ``ungraded/``
  so that export, feedback and the report name the student and say why (``status.py``); beside a
  notebook it is listed with the student's status as another upload, not graded (``uploads.py``).
- Which lesson: ``--lesson``, else the uploaded file's name, else a lesson folder; a file of an LMS
  download whose name names no lesson belongs to the download's one lesson when every other file
  names the same one (Canvas, Moodle, Blackboard and D2L download one assignment at a time).
- Sizes are checked before anything is read: a download over ``c.Collect.max_download_bytes`` is
  refused whole; a notebook over ``c.Collect.max_notebook_bytes`` is not read, and its reason is kept.
- When the LMS says when a file was submitted, that time is written as nbgrader's ``timestamp.txt``
  beside the notebook, so nbgrader's late penalty applies: Blackboard's and D2L's times from the file
  names, Moodle's from its grading worksheet (``--moodle-worksheet``); Canvas says only ``LATE``,
  recorded one second after the due date. What applies to many files is said once.
- Collecting again: a notebook newer than the one in ``submitted/`` (a later time or attempt than
  ``collected.csv`` recorded) replaces it; an older or undecidable one is kept aside beside it.
- Everything is read into memory and written only to computed targets, built from a sanitised student
  id and a known lesson name, never from a zip entry's path (zip-slip: ``download_files.py``).
- Junk that archivers and Jupyter add (``__MACOSX/``, hidden files, ``.ipynb_checkpoints/``) is ignored
  quietly, and so are the LMS's own receipts once read (Blackboard's ``.txt``, D2L's ``index.html``).
- With a roster, a student counts as missing for a lesson when this download has nothing for them and
  submitted/ has nothing either (collecting late submissions in a second batch is normal).
"""
import csv
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
import zipfile
from typing import NamedTuple

from ..course_dir import assignments
from ..grading.batch.notebook_size import NotebookLimits
from . import collected, lms, lms_ids, moodle_worksheet, uploads
from .collect_report import CollectReport, Item
from .download_files import DownloadError, download_size, files, is_junk, mib
from .lms_settings import Collect, course_config
from .status import clear_problem, record_problem, unreadable
from .status import problem as recorded_problem


class CollectError(ValueError):
    """The command cannot start: unknown --lesson, unusable roster, source neither a zip nor a folder."""


SEVERAL_IDS = tuple(column for reader in lms.READERS if reader.several_ids for column in reader.roster_columns)
ROSTER_COLUMNS = ("student_id", "canvas_id", "canvas_anonymous_id", "moodle_id", "d2l_id", "username", "login_id",
                  "email", "name", "first_name", "last_name")


class Roster:
    """Who may submit, and the ids each LMS knows them by (columns: ROSTER_COLUMNS, see module doc)."""

    def __init__(self, rows: list[dict[str, str]]):
        self.rows = rows
        self.student_ids = sorted({row["student_id"] for row in rows})

    @classmethod
    def load(cls, path: str) -> "Roster":
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            headers = {header: header.strip().lower() for header in reader.fieldnames or [] if header}
            if "student_id" not in headers.values():
                raise CollectError(f"{path}: the roster needs a student_id column (it has: "
                                   f"{', '.join(headers.values()) or 'none'}; known: {', '.join(ROSTER_COLUMNS)})")
            rows = [{headers[k]: (v or "").strip() for k, v in row.items() if k in headers} for row in reader]
        rows = [row for row in rows if row["student_id"]]
        unsafe = [row["student_id"] for row in rows if _folder_name(row["student_id"]) != row["student_id"]]
        if unsafe:
            raise CollectError(f"{path}: student_id must be usable as a folder name: {', '.join(unsafe)}")
        return cls(rows)

    def students_matching(self, value: str, columns: tuple[str, ...]) -> list[str]:
        wanted = value.strip().lower()
        hits = set()
        for row in self.rows:
            for column in columns:
                cell = row.get(column, "").lower()
                if column in SEVERAL_IDS and wanted in re.split(r"[\s,;]+", cell):
                    hits.add(row["student_id"])
                elif cell and (cell == wanted or (column == "email" and cell.split("@")[0] == wanted)
                             or (column == "name" and _name_keys(cell) & _name_keys(wanted))):
                    hits.add(row["student_id"])
        return sorted(hits)


def _name_keys(name: str) -> set[str]:
    """'John Smith', 'Smith, John' and Canvas's 'smithjohn' all give 'smithjohn' among their keys."""
    words = re.findall(r"[^\W_]+", name.lower())
    return {"".join(words), "".join(words[-1:] + words[:-1])} - {""}


def _folder_name(raw: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", raw).strip("._-")



# nbgrader reads submitted/<student>/<lesson>/timestamp.txt (CourseDirectory.get_existing_timestamp)
# and compares it with the lesson's due date for its late penalty (AssignLatePenalties).
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f %Z"


def due_date(root: str, lesson: str) -> datetime | None:
    """The lesson's due date in the gradebook (nbgrader db assignment add ... --duedate), as UTC."""
    if not os.path.exists(os.path.join(root, "nbgrader_config.py")):
        return None
    from ..course_dir import open_api
    with open_api(root).gradebook as gradebook:
        try:
            due = gradebook.find_assignment(lesson).duedate
        except Exception:  # MissingEntry: not released yet
            return None
    return due.replace(tzinfo=timezone.utc) if due else None



def _record_time(folder: str, when: datetime | None) -> None:
    path = os.path.join(folder, "timestamp.txt")
    if when is None:
        if os.path.exists(path):
            os.remove(path)
        return
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(when.astimezone(timezone.utc).strftime(TIMESTAMP_FORMAT) + "\n")



def _write(target: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(target), exist_ok=True)
    partial_path = target + ".collecting"
    with open(partial_path, "wb") as handle:
        handle.write(data)
    os.replace(partial_path, target)





def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def lesson_named_by(filename: str, lessons: list[str], any_extension: bool = False) -> str | None:
    """'02_backward.ipynb', '02_backward (1).ipynb' (browser copy), '02_backward-2.ipynb' (Canvas re-upload);
    with ``any_extension`` also '02_backward.pdf' (the lesson of an upload that is not a notebook)."""
    name = filename.rsplit("/", 1)[-1]
    stem, extension = os.path.splitext(name)
    if extension.lower() != ".ipynb" and not (any_extension and extension):
        return None
    stem = re.sub(r"(?:\s*\(\d+\)|-\d+)+$", "", stem.strip()).lower()
    return next((lesson for lesson in lessons if lesson.lower() == stem), None)


def _student(reader: lms.Reader, match: re.Match, roster: Roster | None, fact: lms.Facts | None) -> tuple[str | None, str]:
    """The student_id for a file, or None and why not."""
    raws = [fact.student] if fact and fact.student else reader.candidates(match)
    name = reader.display_name(match)
    if roster is None:
        safe = _folder_name(reader.folder_id(raws[0]))
        return (safe, "") if safe else (None, f"the student id {raws[0]!r} cannot be made into a folder name")
    for values, columns in [(raws, reader.roster_columns)] + ([([name], ("name",))] if name else []):
        hits = sorted({hit for value in values for hit in roster.students_matching(value, columns)})
        if len(hits) > 1:
            return None, f"{' or '.join(repr(v) for v in values)} fits several roster students ({', '.join(hits)})"
        if hits:
            return hits[0], ""
    shown = " or ".join(repr(raw) for raw in raws)
    return None, (f"not on the roster: {reader.name} id {shown}" + (f", name {name!r}" if name else "")
                  + f" matches no {'/'.join(reader.roster_columns)}" + (" or name" if name else "")
                  + getattr(reader, "hidden", ""))


class _Candidate(NamedTuple):
    shown: str
    filename: str           # what the student uploaded (the last part of its name)
    data: bytes | None      # None: too big, not read
    order: tuple[int, float]  # (attempt from the file name, or -1; modification time)
    submitted_at: datetime | None = None  # when the LMS says it was submitted
    late: bool = False        # the LMS marked it late without saying when (Canvas)
    lms_id: tuple[str, str] = ("", "")  # (reader, the LMS's id for the student in this lesson)
    named: bool = True        # its file name names the lesson
    refused: str = ""         # why it was not read

    @property
    def notebook(self) -> bool:
        return self.filename.lower().endswith(".ipynb")


class _Unsorted(NamedTuple):
    """A file whose lesson its name does not tell: decided once the whole download is read."""
    shown: str
    reader: lms.Reader
    match: re.Match
    file_data: tuple


@dataclass
class _Run:
    """One collect's state while it places files."""
    root: str
    limits: Collect
    roster: Roster | None
    worksheets: bool
    context: lms.Context
    force: bool = False
    report: CollectReport = field(default_factory=CollectReport)
    found: dict = field(default_factory=lambda: defaultdict(list))  # (student, lesson) -> [_Candidate]
    notes: dict = field(default_factory=lambda: defaultdict(list))  # a note said once -> students
    due: dict = field(default_factory=dict)
    ids: dict = field(default_factory=dict)      # lms_ids.Key -> id
    placed: dict = field(default_factory=dict)   # (student, lesson) -> collected.Upload

    def note(self, text: str, who: str) -> None:
        if who not in self.notes[text]:
            self.notes[text].append(who)


def _read_download(source: str, run: _Run) -> tuple[list, dict[str, lms.Facts]]:
    """Every file of the download read once (None: over the notebook limit), and what its receipts say."""
    read, facts = [], {}
    for file in files(source, run.report, run.limits):
        if is_junk(file.path):
            continue
        receipt = lms.receipt_reader(file.path)
        if receipt is not None:
            if file.size <= run.limits.max_notebook_bytes:
                facts.update(receipt.read_receipt(file.path, file.read(), run.context))
            continue
        data = None
        if file.size <= run.limits.max_notebook_bytes:
            try:
                data = file.read()
            except Exception as error:  # bad CRC, encrypted entry, unreadable file
                where = run.report.unplaced if file.path.lower().endswith(".ipynb") else run.report.skipped
                where.append(Item(file.shown, why=f"could not be read from the download ({error})"))
                continue
        read.append((file, data))
    return read, facts


def _sort(source: str, lessons: list[str], lesson: str | None, run: _Run) -> None:
    """Each file of the download under its (student, lesson), or reported with why not."""
    read, facts = _read_download(source, run)
    unsorted = []
    for file, data in read:
        notebook = file.path.lower().endswith(".ipynb")
        identified = lms.identify(file.path)
        if identified is None:
            (run.report.unplaced if notebook else run.report.skipped).append(Item(
                file.shown, why=("cannot tell whose it is: no LMS file name and no student folder"
                                 + ("" if notebook else " (and not a notebook)"))))
            continue
        reader, match = identified
        uploaded = match["filename"].rsplit("/", 1)[-1]
        folder_lesson = match.groupdict().get("lesson")
        named = lesson_named_by(uploaded, lessons, any_extension=True)
        which = lesson or named or (folder_lesson if folder_lesson in lessons else None)
        if which is None:
            unsorted.append(_Unsorted(file.shown, reader, match, (file, data)))
            continue
        _add(run, file, data, reader, match, which, facts, named=bool(named))
    for item in unsorted:
        _sort_by_company(run, item, lessons, facts)


def _sort_by_company(run: _Run, item: _Unsorted, lessons: list[str], facts: dict) -> None:
    """A file named for no lesson goes with its student's one lesson in this download, else (an LMS's
    download being one assignment) with the download's one lesson; otherwise it is reported."""
    file, data = item.file_data
    notebook = file.path.lower().endswith(".ipynb")
    student, _ = _student(item.reader, item.match, run.roster, facts.get(file.path.rsplit("/", 1)[-1]))
    theirs = {lesson for who, lesson in run.found if who == student}
    every = {lesson for _, lesson in run.found}
    only = (theirs if len(theirs) == 1 else every if len(every) == 1 and item.reader.from_lms else set())
    if only:
        which = next(iter(only))
        if notebook:
            run.note(f"named for no lesson, taken as {which}, the only lesson of "
                     f"{'its student' if theirs else 'the download'} (--lesson says so)", file.shown)
        _add(run, file, data, item.reader, item.match, which, facts, named=False)
        return
    uploaded = item.match["filename"].rsplit("/", 1)[-1]
    why = f"cannot tell the lesson: {uploaded!r} names none of {', '.join(lessons)} (use --lesson if it is one)"
    (run.report.unplaced if notebook else run.report.skipped).append(Item(item.shown, student or "", "", why))


def _add(run: _Run, file, data, reader: lms.Reader, match: re.Match, which: str, facts: dict, named: bool) -> None:
    fact = facts.get(file.path.rsplit("/", 1)[-1])
    student, why = _student(reader, match, run.roster, fact)
    notebook = file.path.lower().endswith(".ipynb")
    if student is None:
        (run.report.unplaced if notebook else run.report.skipped).append(
            Item(file.shown, lesson=which, why=why + ("" if notebook else f" ({uploads.kind(file.path)}, not a notebook)")))
        return
    when = (fact.submitted_at if fact and fact.submitted_at else None) or reader.submitted_at(match, run.context)
    limit = run.limits.max_notebook_bytes
    refused = "" if data is not None else (
        f"the {'notebook' if notebook else 'file'} is {mib(file.size)}, over the limit of {mib(limit)} per notebook: it was not read. A lesson "
        "notebook is well under 5 MB; clear the outputs (Edit > Clear Outputs of All Cells), save and upload it again")
    if notebook and data is not None and (refused := NotebookLimits(config=run.limits.config).refusal(data)):
        data = None
    run.found[(student, which)].append(_Candidate(
        file.shown, match["filename"].rsplit("/", 1)[-1], data, (reader.attempt(match), file.mtime), when,
        reader.late_unknown_time(match), (reader.name, (fact.student if fact and fact.student else match["student"])),
        named, refused))
    if reader.name == "moodle" and not run.worksheets:
        run.note("Moodle file names carry no submission time and no --moodle-worksheet was given: these have no "
                 "time, so no late penalty applies to them; collect again with the assignment's grading worksheet "
                 "(--moodle-worksheet CSV) to record their times", f"{student}/{which}")


def _timestamp(run: _Run, student: str, lesson: str, kept: _Candidate) -> datetime | None:
    """What timestamp.txt should say; a note (said once) when lateness cannot be recorded."""
    if kept.submitted_at:
        return kept.submitted_at
    who = f"{student}/{lesson}"
    if run.worksheets and kept.lms_id[0] == "moodle":
        run.note("no submission time for this participant in the grading worksheet: no late penalty", who)
        return None
    if not kept.late:
        return None
    if lesson not in run.due:
        run.due[lesson] = due_date(run.root, lesson)
    if run.due[lesson] is None:
        run.note(f"late (the LMS says so), but {lesson} has no due date in the gradebook: no late penalty", who)
        return None
    # Canvas says only that a file is late, not when: recorded just after the due date.
    run.note("late (the LMS says so, not when): recorded 1 s after the lesson's due date", who)
    return run.due[lesson] + timedelta(seconds=1)


def _choose(candidates: list[_Candidate]) -> tuple[list[_Candidate], list[_Candidate], list[_Candidate]]:
    """(the latest notebooks, older attempts and copies, other uploads) of one student and lesson.

    A notebook named for the lesson wins over one that is not (the second notebook is another upload);
    more than one latest notebook with different bytes means nothing tells which to grade.
    """
    notebooks = [c for c in candidates if c.notebook]
    graded = [c for c in notebooks if c.named] or notebooks
    others = [c for c in candidates if c not in graded]
    graded.sort(key=lambda c: c.order, reverse=True)
    latest = [c for c in graded if c.order == graded[0].order] if graded else []
    if len({c.data for c in latest}) > 1:
        return latest, [c for c in graded if c not in latest], others
    return latest[:1], graded[1:], others


def _keep_others(run: _Run, student: str, lesson: str, others: list[_Candidate], has_notebook: bool) -> None:
    """Every upload that is not graded, kept aside; when it is all there is, its reason is the status."""
    for other in others:
        what = uploads.kind(other.filename)
        if other.data is None:
            why = f"{what}: {other.refused.split(':')[0]}: not read, not kept"
        elif has_notebook:
            why = f"{what}, handed in beside the notebook: kept, not graded"
        else:
            why = f"{what}, not a notebook: kept, not graded"
        where = uploads.keep(run.root, student, lesson, other.filename, other.data, why, note=has_notebook)
        item = Item(other.shown, student, lesson, f"{why} ({where})")
        (run.report.also if has_notebook else run.report.not_notebooks).append(item)
    if others and not has_notebook and not os.path.exists(_target(run.root, student, lesson)):
        names = ", ".join(f"{o.filename} ({uploads.kind(o.filename)})" for o in others)
        record_problem(run.root, student, lesson,
                       f"no notebook was handed in, only {names}: there is nothing to grade. Upload the notebook "
                       f"itself ({lesson}.ipynb: in JupyterLab, File > Download)")


def _target(root: str, student: str, lesson: str) -> str:
    return os.path.join(root, "submitted", student, lesson, f"{lesson}.ipynb")


def _place_all(run: _Run) -> None:
    previous = collected.read_all(run.root)
    for (student, which), candidates in sorted(run.found.items()):
        kept, superseded, others = _choose(candidates)
        if len(kept) > 1:
            _two_notebooks(run, student, which, kept)
        elif kept:
            run.report.superseded += [Item(c.shown, student, which, f"kept {kept[0].shown} instead") for c in superseded]
            _place(run, student, which, kept[0], previous.get((student, which)))
        _keep_others(run, student, which, others, bool(kept) or os.path.exists(_target(run.root, student, which)))


def _two_notebooks(run: _Run, student: str, which: str, latest: list[_Candidate]) -> None:
    names = ", ".join(c.shown for c in latest)
    for candidate in latest:
        where = uploads.keep(run.root, student, which, candidate.filename, candidate.data,
                             "one of several latest notebooks: kept, not graded", note=False)
        run.report.conflicts.append(Item(candidate.shown, student, which, f"{len(latest)} different notebooks and "
                                         f"nothing tells which is latest ({names}); kept in {where}: copy the right "
                                         f"one to submitted/{student}/{which}/{which}.ipynb"))
    if not os.path.exists(_target(run.root, student, which)):
        record_problem(run.root, student, which, f"{len(latest)} different notebooks were handed in at once "
                       f"({', '.join(c.filename for c in latest)}) and nothing tells which to grade: the "
                       "instructor places one by hand")


def _place(run: _Run, student: str, which: str, kept: _Candidate, previous: collected.Upload | None) -> None:
    target = _target(run.root, student, which)
    submitted = os.path.realpath(os.path.join(run.root, "submitted"))
    if os.path.commonpath([os.path.realpath(target), submitted]) != submitted:
        run.report.unplaced.append(Item(kept.shown, student, which, "its target is outside submitted/; not written"))
        return
    if kept.lms_id[0] and next(r for r in lms.READERS if r.name == kept.lms_id[0]).keeps_ids:
        run.ids[(kept.lms_id[0], which, student)] = kept.lms_id[1]
    if kept.data is None:
        record_problem(run.root, student, which, kept.refused)
        run.report.refused.append(Item(kept.shown, student, which, kept.refused))
        return
    when = _timestamp(run, student, which, kept)
    upload = collected.Upload(kept.shown, kept.order[0], kept.order[1], when.isoformat() if when else "",
                              kept.lms_id[0])
    why = ""
    if os.path.exists(target) and _read(target) != kept.data:
        later = collected.newer(upload, previous) if previous else None
        if not (run.force or later):
            where = uploads.keep(run.root, student, which, kept.filename, kept.data,
                                 "differs from the notebook in submitted/, not newer: kept, not graded")
            told = "older than" if later is False else "not known to be newer than"
            run.report.kept_both.append(Item(kept.shown, student, which, f"{told} the notebook in submitted/ "
                                             f"({previous.source if previous else 'placed by hand'}), which stays; "
                                             f"this one is kept in {where} (--force replaces it)"))
            return
        why = "replaced an older notebook" if later else "replaced a different notebook (--force)"
    if why or not os.path.exists(target):
        _write(target, kept.data)
        run.report.placed.append(Item(kept.shown, student, which, why))
        problem = unreadable(kept.data)
        if problem:
            run.report.unreadable.append(Item(kept.shown, student, which, problem))
    else:
        run.report.unchanged.append(Item(kept.shown, student, which))
    _record_time(os.path.dirname(target), when)
    clear_problem(run.root, student, which)
    run.placed[(student, which)] = upload


def _missing(run: _Run) -> list[tuple[str, str]]:
    """Roster students with nothing for a lesson this download is for, here or in submitted/ or ungraded/."""
    if run.roster is None:
        return []
    lessons = {lesson for _, lesson in run.found} | {i.lesson for i in run.report.unplaced if i.lesson}
    told = {(i.student, i.lesson) for i in run.report.unplaced + run.report.skipped if i.student}
    return [(student, which) for which in sorted(lessons) for student in run.roster.student_ids
            if (student, which) not in run.found and (student, which) not in told and (student, "") not in told
            and not os.path.exists(_target(run.root, student, which))
            and not recorded_problem(run.root, student, which)]


def _start(source: str, root: str, lesson: str | None, roster: str | None, worksheets) -> tuple[list[str], _Run]:
    lessons = assignments(root)
    if lesson is not None and lesson not in lessons:
        raise CollectError(f"unknown lesson {lesson!r}; the lessons are {', '.join(lessons)}")
    limits = Collect(config=course_config(root))
    if not os.path.isdir(source) and not (os.path.isfile(source) and zipfile.is_zipfile(source)):
        raise CollectError(f"{source} is neither a folder nor a zip file")
    total = download_size(source)
    if total > limits.max_download_bytes:
        raise CollectError(f"{source} unpacks to {mib(total)}, over the download limit of "
                           f"{mib(limits.max_download_bytes)} (c.Collect.max_download_bytes in nbgrader_config.py); "
                           "nothing was read")
    people = Roster.load(roster) if roster else None
    try:
        moodle = moodle_worksheet.read(list(worksheets), limits.moodle_date_format, limits.timezone)
    except (moodle_worksheet.WorksheetError, OSError, UnicodeDecodeError, csv.Error) as problem:
        raise CollectError(str(problem)) from None
    context = lms.Context(limits.timezone, {"moodle": moodle.times})
    run = _Run(root, limits, people, bool(worksheets), context)
    run.report.unread_times = [Item(where, why=why) for where, why in moodle.unread]
    return lessons, run


def collect(source: str, root: str, lesson: str | None = None, roster: str | None = None,
            force: bool = False, worksheets: list[str] | tuple = ()) -> CollectReport:
    """Place every submission in ``source`` (zip or folder) under ``<root>/submitted/``; see the module doc.

    ``worksheets``: Moodle grading worksheets, whose submission times become the Moodle files' timestamps.
    """
    lessons, run = _start(source, root, lesson, roster, worksheets)
    run.force = force
    try:
        _sort(source, lessons, lesson, run)
    except DownloadError as error:
        raise CollectError(str(error)) from None
    _place_all(run)
    lms_ids.record(root, run.ids)
    collected.record(root, run.placed)
    if run.roster:
        from .students import give_names
        give_names(root, run.roster.rows, {student for student, _ in run.placed})
    run.report.missing = _missing(run)
    run.report.notes = [f"{note}: {', '.join(who)}" for note, who in run.notes.items()]
    return run.report
