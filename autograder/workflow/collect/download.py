"""Put an LMS bulk download into nbgrader's ``submitted/<student>/<lesson>/<lesson>.ipynb``.

Canvas, Moodle, Blackboard and D2L each hand the instructor a download of every submission, each
naming the uploads its own way: one reader per LMS in ``lms/`` says whose upload it is, which attempt
and when. ``collect`` keeps each student's latest notebook and places it where ``autograd-course grade``
looks. Every other file gets one line saying what became of it, and every upload a student made is
kept, so nothing is lost silently. The class list is ``roster.py``'s.

Choices made here:
- Whose and when come from the LMS's naming of the upload alone (``download_files.py`` finds the level
  at which uploads are named, ``download_reading.py`` reads each file under its upload; the
  instructor's wrapper folders and zips above that level do not count):
  whatever an upload holds, in a zip (``upload_contents.py``) or in Moodle's folder, is that student's,
  with the upload's attempt, time and LATE mark, whatever its own names say. A file inside a student's
  zip named like a classmate's upload is still the student's own.
- Collect is bounded per student: each student's uploads may unpack to ``c.Collect.max_upload_bytes``
  and ``max_upload_entries`` files, zips opened ``max_upload_depth`` deep; each file is streamed, and
  kept in memory only while small (``staged_files.py``), else in a staging folder in the course. A corrupt, truncated
  or encrypted entry, a zip that is not one, or a spent budget refuses that student's upload with its
  reason, and every other student is collected as usual. The work is linear in the download's files.
- A notebook that is not valid JSON/nbformat is still placed, and listed as unreadable: grading then
  tells the student their file could not be read, which is what they need to hear.
- An upload that is not a notebook (a PDF, an HTML export) is kept in ``ungraded/<student>/<lesson>/
  uploads/``. When it is all the student handed in for the lesson, its reason is kept in ``ungraded/``
  so that export, feedback and the report name the student and say why (``status.py``); beside a
  notebook it is listed with the student's status as another upload, not graded (``uploads.py``).
- Which lesson: ``--lesson``, else the file's own name, else the name of the upload it came in, else a
  lesson folder; a file named for no lesson belongs to its student's one lesson in the download, else to
  the download's one lesson (Canvas, Moodle, Blackboard and D2L download one assignment at a time).
- Sizes are checked before anything is read: a download over ``c.Collect.max_download_bytes`` is
  refused whole; a notebook over ``c.Collect.max_notebook_bytes`` is not placed, and its reason is kept.
- When the LMS says when a file was submitted, that time is written as nbgrader's ``timestamp.txt``
  beside the notebook, so nbgrader's late penalty applies: Blackboard's and D2L's times from the file
  names, Moodle's from its grading worksheet (``--moodle-worksheet``); Canvas says only ``LATE``:
  recorded as late, time unknown (``collected.csv``), never as a made-up time. What applies to many
  files is said once.
- Collecting again: a notebook newer than the one in ``submitted/`` (a later time or attempt than
  ``collected.csv`` recorded) replaces it; an older or undecidable one is kept aside beside it.
- Files are written only to computed targets, built from a sanitised student id and a known lesson
  name, never from a zip entry's path; names are printed with control characters escaped.
- Junk that archivers and Jupyter add (``__MACOSX/``, hidden files, ``.ipynb_checkpoints/``) is ignored
  quietly, and so are the LMS's own receipts once read (Blackboard's ``.txt``, D2L's ``index.html``),
  which are read only where the LMS puts them, never inside an upload.
- With a roster, a student counts as missing for a lesson when this download has nothing for them and
  submitted/ has nothing either (collecting late submissions in a second batch is normal).
"""
import csv
import os
import re
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import NamedTuple

from ...course_dir import assignments
from ...grading.batch.notebook_size import NotebookLimits
from ..records import upload_record as collected, lms_ids, extensions
from ..records.replaced import keep_replaced
from . import download_reading, groups, lms, moodle_worksheet, staged_files, uploads
from .report import CollectReport, Item
from .download_files import DownloadError, download_size, mib
from .download_reading import Pending, Upload, too_big
from ..lms_settings import Collect, course_config
from ..records.roster import Roster, RosterError, folder_name
from .staged_files import Staged, Staging
from ..records.status import clear_problem, record_problem, unreadable
from ..records.status import problem as recorded_problem


class CollectError(ValueError):
    """The command cannot start: unknown --lesson, unusable roster, source neither a zip nor a folder."""


# nbgrader reads submitted/<student>/<lesson>/timestamp.txt (CourseDirectory.get_existing_timestamp)
# and compares it with the lesson's due date for its late penalty (AssignLatePenalties).
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f %Z"


def record_time(folder: str, when: datetime | None) -> None:
    """Write (or remove) nbgrader's timestamp.txt in a submission folder of submitted/."""
    path = os.path.join(folder, "timestamp.txt")
    if when is None:
        if os.path.exists(path):
            os.remove(path)
        return
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(when.astimezone(timezone.utc).strftime(TIMESTAMP_FORMAT) + "\n")


def lesson_named_by(filename: str, lessons: list[str], any_extension: bool = False) -> str | None:
    """'02_backward.ipynb', '02_backward (1).ipynb' (browser copy), '02_backward-2.ipynb' (Canvas re-upload);
    with ``any_extension`` also '02_backward.pdf' (the lesson of an upload that is not a notebook)."""
    name = filename.rsplit("/", 1)[-1]
    stem, extension = os.path.splitext(name)
    if extension.lower() != ".ipynb" and not (any_extension and extension):
        return None
    stem = re.sub(r"(?:\s*\(\d+\)|-\d+)+$", "", stem.strip()).lower()
    return next((lesson for lesson in lessons if lesson.lower() == stem), None)


class _Candidate(NamedTuple):
    shown: str
    filename: str             # what the student named it (the last part)
    staged: Staged | None     # None: refused, not kept
    order: tuple[int, float]  # the upload's (attempt from its name, or -1; its time in the download)
    submitted_at: datetime | None = None  # when the LMS says it was submitted
    late: bool = False        # the LMS marked it late without saying when (Canvas)
    lms_id: tuple[str, str] = ("", "")  # (reader, the LMS's id for the student in this lesson)
    named: bool = True        # its own name names the lesson
    refused: str = ""         # why it was not read

    @property
    def notebook(self) -> bool:
        return self.filename.lower().endswith(".ipynb")

    @property
    def digest(self) -> str:
        return self.staged.digest if self.staged else f"refused: {self.refused}"


@dataclass
class _Run:
    """One collect's state while it places what the download held."""
    root: str
    limits: Collect
    roster: Roster | None
    worksheets: bool
    context: lms.Context
    lessons: list[str]
    force: bool = False
    report: CollectReport = field(default_factory=CollectReport)
    facts: dict = field(default_factory=dict)     # (reader, the LMS's name of a file) -> lms.Facts (receipts)
    found: dict = field(default_factory=lambda: defaultdict(list))  # (student, lesson) -> [_Candidate]
    notes: dict = field(default_factory=lambda: defaultdict(dict))  # a note said once -> {student: None}, in order
    ids: dict = field(default_factory=dict)      # lms_ids.Key -> id
    placed: dict = field(default_factory=dict)   # (student, lesson) -> collected.Upload
    students: dict = field(default_factory=dict)  # memo of _student
    moodle_extensions: dict = field(default_factory=dict)  # participant id -> their own due date (worksheet)

    def note(self, text: str, who: str) -> None:
        self.notes[text][who] = None

    def names_an_upload(self, name: str) -> bool:
        """A folder named so is a student's, never a wrapper: an LMS's naming, or a roster student."""
        return lms.names_an_upload(name) or bool(self.roster and self.roster.mentions(name))


# -- whose and which lesson ------------------------------------------------------------------------

def _student(run: _Run, upload: Upload) -> tuple[str | None, str]:
    """The student_id for an upload, or None and why not (the same answer for every file of it)."""
    fact = run.facts.get((upload.reader.name, upload.key))
    reader, match = upload.reader, upload.match
    raws = [fact.student] if fact and fact.student else reader.candidates(match)
    name = reader.display_name(match)
    key = (reader.name, tuple(raws), name)
    if key not in run.students:
        run.students[key] = _resolve(reader, raws, name, run.roster)
    return run.students[key]


def _resolve(reader: lms.Reader, raws: list[str], name: str | None, roster: Roster | None) -> tuple[str | None, str]:
    if roster is None:
        safe = folder_name(reader.folder_id(raws[0]))
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


def _sort(lesson: str | None, pending_files: list[Pending], run: _Run) -> None:
    """Each file read under its (student, lesson), or reported with why not."""
    unsorted = []
    for pending in pending_files:
        match = pending.upload.match
        named = lesson_named_by(pending.filename, run.lessons, any_extension=True)
        upload_lesson = lesson_named_by(pending.upload.name, run.lessons, any_extension=True)
        folder_lesson = match.groupdict().get("lesson")
        which = lesson or named or upload_lesson or (folder_lesson if folder_lesson in run.lessons else None)
        if which is None:
            unsorted.append(pending)
        else:
            _add(run, pending, which, named=bool(named))
    lessons_of = defaultdict(set)  # decided once, from the files that name their lesson: order does not matter
    for student, which in run.found:
        lessons_of[student].add(which)
    every = {which for _, which in run.found}
    for pending in unsorted:
        _sort_by_company(run, pending, lessons_of, every)


def _sort_by_company(run: _Run, pending: Pending, lessons_of: dict, every: set) -> None:
    """A file named for no lesson goes with its student's one lesson in this download, else (an LMS's
    download being one assignment) with the download's one lesson; otherwise it is reported."""
    notebook = pending.filename.lower().endswith(".ipynb")
    student, _ = _student(run, pending.upload)
    theirs = lessons_of.get(student, set())
    only = theirs if len(theirs) == 1 else every if len(every) == 1 and pending.upload.reader.from_lms else set()
    if only:
        which = next(iter(only))
        if notebook:
            run.note(f"named for no lesson, taken as {which}, the only lesson of "
                     f"{'its student' if theirs else 'the download'} (--lesson says so)", pending.shown)
        _add(run, pending, which, named=False)
        return
    why = (f"cannot tell the lesson: {pending.filename!r} names none of {', '.join(run.lessons)} "
           "(use --lesson if it is one)")
    (run.report.unplaced if notebook else run.report.skipped).append(Item(pending.shown, student or "", "", why))
    if pending.staged is not None:
        staged_files.drop(pending.staged)


def _add(run: _Run, pending: Pending, which: str, named: bool) -> None:
    upload = pending.upload
    reader, match = upload.reader, upload.match
    student, why = _student(run, upload)
    notebook = pending.filename.lower().endswith(".ipynb")
    if student is None:
        (run.report.unplaced if notebook else run.report.skipped).append(
            Item(pending.shown, lesson=which, why=why + ("" if notebook else f" ({uploads.kind(pending.filename)}, "
                                                                              "not a notebook)")))
        return
    fact = run.facts.get((reader.name, upload.key))
    when = (fact.submitted_at if fact and fact.submitted_at else None) or reader.submitted_at(match, run.context)
    run.found[(student, which)].append(_Candidate(
        pending.shown, pending.filename, pending.staged, (reader.attempt(match), upload.mtime), when,
        reader.late_unknown_time(match), (reader.name, (fact.student if fact and fact.student else match["student"])),
        named, pending.refused))
    if reader.name == "moodle" and not run.worksheets:
        run.note("Moodle file names carry no submission time and no --moodle-worksheet was given: these have no "
                 "time, so no late penalty applies to them; collect again with the assignment's grading worksheet "
                 "(--moodle-worksheet CSV) to record their times", f"{student}/{which}")


# -- placing ------------------------------------------------------------------------------------------

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
    # Canvas says only that a file is late, not when: no time is made up. It is recorded as "late, time
    # unknown" (collected.csv), and c.LateWork.time_unknown_penalty says what that costs (grades/late_work.py).
    run.note("late, time unknown (the LMS says late, not when): no time is recorded, and "
             "c.LateWork.time_unknown_penalty decides the penalty", who)
    return None


def _choose(candidates: list[_Candidate]) -> tuple[list[_Candidate], list[_Candidate], list[_Candidate]]:
    """(the latest notebooks, older attempts and copies, other uploads) of one student and lesson.

    A notebook named for the lesson wins over one that is not (the second notebook is another upload);
    more than one latest notebook with different bytes means nothing tells which to grade.
    """
    notebooks = [c for c in candidates if c.notebook]
    graded = [c for c in notebooks if c.named] or notebooks
    chosen = {id(c) for c in graded}
    others = [c for c in candidates if id(c) not in chosen]
    graded.sort(key=lambda c: c.order, reverse=True)
    latest = [c for c in graded if c.order == graded[0].order] if graded else []
    if len({c.digest for c in latest}) > 1:
        return latest, graded[len(latest):], others
    return latest[:1], graded[1:], others


def _keep_others(run: _Run, student: str, lesson: str, others: list[_Candidate], has_notebook: bool) -> None:
    """Every upload that is not graded, kept aside; when it is all there is, its reason is the status."""
    if not others:
        return
    kept = []
    for other in others:
        what = uploads.kind(other.filename)
        if other.staged is None:
            why = f"{what}: {other.refused}"
        elif has_notebook:
            why = f"{what}, handed in beside the notebook: kept, not graded"
        else:
            why = f"{what}, not a notebook: kept, not graded"
        kept.append(uploads.Upload(other.filename, other.staged, why, note=has_notebook))
    for other, where, upload in zip(others, uploads.keep(run.root, student, lesson, kept), kept):
        item = Item(other.shown, student, lesson, upload.why if other.staged is None else f"{upload.why} ({where})")
        (run.report.refused if other.staged is None else run.report.also if has_notebook
         else run.report.not_notebooks).append(item)
    if not has_notebook and not os.path.exists(_target(run.root, student, lesson)):
        record_problem(run.root, student, lesson, _nothing_to_grade(lesson, others))


def _nothing_to_grade(lesson: str, others: list[_Candidate]) -> str:
    refused = [o for o in others if o.staged is None]
    if refused:
        return ("nothing handed in could be graded: " + "; ".join(f"{o.filename} ({uploads.kind(o.filename)}): "
                                                                    f"{o.refused}" for o in refused))
    names = ", ".join(f"{o.filename} ({uploads.kind(o.filename)})" for o in others)
    return (f"no notebook was handed in, only {names}: there is nothing to grade. Upload the notebook "
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
    why = "one of several latest notebooks: kept, not graded"
    where = uploads.keep(run.root, student, which, [uploads.Upload(c.filename, c.staged, why, note=False)
                                                    for c in latest])
    for candidate, place in zip(latest, where):
        run.report.conflicts.append(Item(candidate.shown, student, which, f"{len(latest)} different notebooks and "
                                         f"nothing tells which is latest ({names}); kept in {place}: copy the right "
                                         f"one to submitted/{student}/{which}/{which}.ipynb"))
    if not os.path.exists(_target(run.root, student, which)):
        record_problem(run.root, student, which, f"{len(latest)} different notebooks were handed in at once "
                       f"({', '.join(c.filename for c in latest)}) and nothing tells which to grade: the "
                       "instructor places one by hand")


def _refusal(run: _Run, kept: _Candidate) -> tuple[str, bytes | None]:
    """Why the kept notebook cannot be placed ("" when it can), and its bytes when they were read."""
    if kept.staged is None:
        return kept.refused, None
    if kept.staged.size > run.limits.max_notebook_bytes:
        return too_big(kept.staged.size, run.limits.max_notebook_bytes), None
    data = staged_files.read(kept.staged)
    return NotebookLimits(config=run.limits.config).refusal(data), data


def _place(run: _Run, student: str, which: str, kept: _Candidate, previous: collected.Upload | None) -> None:
    target = _target(run.root, student, which)
    submitted = os.path.realpath(os.path.join(run.root, "submitted"))
    if os.path.commonpath([os.path.realpath(target), submitted]) != submitted:
        run.report.unplaced.append(Item(kept.shown, student, which, "its target is outside submitted/; not written"))
        return
    if kept.lms_id[0] and next(r for r in lms.READERS if r.name == kept.lms_id[0]).keeps_ids:
        run.ids[(kept.lms_id[0], which, student)] = kept.lms_id[1]
    refused, data = _refusal(run, kept)
    if refused:
        record_problem(run.root, student, which, refused)
        run.report.refused.append(Item(kept.shown, student, which, refused))
        return
    when = _timestamp(run, student, which, kept)
    upload = collected.Upload(kept.shown, kept.order[0], kept.order[1], when.isoformat() if when else "",
                              kept.lms_id[0], collected.TIME_UNKNOWN if kept.late and not when else "")
    why = ""
    exists = os.path.exists(target)
    if exists and staged_files.digest_of(target) != kept.staged.digest:
        later = collected.newer(upload, previous) if previous else None
        if not (run.force or later):
            [where] = uploads.keep(run.root, student, which, [uploads.Upload(
                kept.filename, kept.staged, "differs from the notebook in submitted/, not newer: kept, not graded")])
            told = "older than" if later is False else "not known to be newer than"
            run.report.kept_both.append(Item(kept.shown, student, which, f"{told} the notebook in submitted/ "
                                             f"({previous.source if previous else 'placed by hand'}), which stays; "
                                             f"this one is kept in {where} (--force replaces it)"))
            return
        why = "replaced an older notebook" if later else "replaced a different notebook (--force)"
        why += f"; the one before is kept in {keep_replaced(run.root, student, which)}"
    if why or not exists:
        staged_files.move(kept.staged, target)
        run.report.placed.append(Item(kept.shown, student, which, why))
        problem = unreadable(data)
        if problem:
            run.report.unreadable.append(Item(kept.shown, student, which, problem))
    else:
        run.report.unchanged.append(Item(kept.shown, student, which))
    record_time(os.path.dirname(target), when)
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


def _start(source: str, root: str, lesson: str | None, roster: str | None, worksheets) -> _Run:
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
    try:
        people = Roster.load(roster) if roster else None
    except RosterError as problem:
        raise CollectError(str(problem)) from None
    try:
        moodle = moodle_worksheet.read(list(worksheets), limits.moodle_date_format, limits.timezone)
    except (moodle_worksheet.WorksheetError, OSError, UnicodeDecodeError, csv.Error) as problem:
        raise CollectError(str(problem)) from None
    context = lms.Context(limits.timezone, {"moodle": moodle.times})
    run = _Run(root, limits, people, bool(worksheets), context, lessons)
    run.report.unread_times = [Item(where, why=why) for where, why in moodle.unread]
    run.moodle_extensions = moodle.extensions
    return run


def collect(source: str, root: str, lesson: str | None = None, roster: str | None = None,
            force: bool = False, worksheets: list[str] | tuple = ()) -> CollectReport:
    """Place every submission in ``source`` (zip or folder) under ``<root>/submitted/``; see the module doc.

    ``worksheets``: Moodle grading worksheets, whose submission times become the Moodle files' timestamps.
    """
    run = _start(source, root, lesson, roster, worksheets)
    run.force = force
    with Staging(root) as staging:
        reading = download_reading.Reading(run.limits, run.lessons, run.context, staging, run.report,
                                           run.names_an_upload)
        try:
            download_reading.read(source, reading)
        except DownloadError as error:
            raise CollectError(str(error)) from None
        run.facts = reading.facts
        _sort(lesson, reading.pending, run)
        _place_all(run)
        groups.share(run, set(run.placed))
    lms_ids.record(root, run.ids)
    extensions.record_lms(root, {(student, which): (run.moodle_extensions[pid], "Moodle grading worksheet")
                                 for (reader, which, student), pid in run.ids.items()
                                 if reader == "moodle" and pid in run.moodle_extensions})
    collected.record(root, run.placed)
    if run.roster:
        from ..records.student_names import give_names
        give_names(root, run.roster.rows, {student for student, _ in run.placed})
    run.report.missing = _missing(run)
    run.report.notes = [f"{note}: {', '.join(who)}" for note, who in run.notes.items()]
    return run.report
