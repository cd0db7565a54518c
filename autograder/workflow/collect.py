"""Put an LMS bulk download into nbgrader's ``submitted/<student>/<lesson>/<lesson>.ipynb``.

Canvas, Moodle and Blackboard each hand the instructor one zip of every submission, each naming the
files its own way (see ``FILE_NAMINGS``). ``collect`` works out from each name whose notebook it is and
for which lesson, keeps each student's latest attempt and places it where ``autograd-course grade``
looks. Whatever it does not place gets one line in the report saying why, so nothing is lost silently.

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
    username    Blackboard username, or the folder name of a plain per-student folder
    login_id    institutional login (Canvas "SIS Login ID"), matched like username
    email       matched whole, or by the part before the @
    name        "First Last" or "Last, First"; tried only when no id matched (Canvas, Moodle, folders)

Choices made here:
- A notebook that is not valid JSON/nbformat is still placed, and listed as unreadable: grading then
  tells the student their file could not be read, which is what they need to hear, and the instructor
  has exactly what was handed in.
- Sizes are checked before anything is read, from the zip's own directory (or the file system):
  a download over ``c.Collect.max_download_bytes`` is refused whole; a notebook over
  ``c.Collect.max_notebook_bytes`` is not read, and its reason is kept in ``ungraded/`` so that
  export, feedback and the report still name the student (``status.py``).
- When the LMS says when a file was submitted, that time is written as nbgrader's
  ``timestamp.txt`` beside the notebook, so nbgrader's late penalty (a due date in the gradebook,
  ``c.LateSubmissionPlugin.penalty_method``) applies: Blackboard's attempt time; Canvas says only
  ``LATE``, recorded one second after the due date. Moodle's file names carry no time: its grading
  worksheet does (``--moodle-worksheet``, ``moodle_worksheet.py``).
- The Moodle participant id of each placed file is kept in ``lms_ids.csv`` (``lms_ids.py``): export
  fills each lesson's Moodle grading worksheet from it.
- Everything is read into memory and written only to the computed target, whose path is built from a
  sanitised student id and a known lesson name, never from a zip entry's path: entries with absolute
  paths or ``..`` are reported and not read at all (zip-slip).
- Junk that archivers and Jupyter add (``__MACOSX/``, hidden files, ``.ipynb_checkpoints/``) and
  Blackboard's ``.txt`` receipts are ignored quietly; every other non-notebook file is listed as skipped.
- With a roster, a student counts as missing for a lesson when this download has nothing for them and
  submitted/ has nothing either (collecting late submissions in a second batch is normal).
"""
import csv
import io
import os
import re
import time
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Callable, Iterator, NamedTuple

from zoneinfo import ZoneInfo

from ..course_dir import assignments
from . import lms_ids, moodle_worksheet
from .lms_settings import Collect, course_config
from .moodle_worksheet import SubmissionTimes
from .status import clear_problem, record_problem, unreadable
from .status import problem as recorded_problem


class CollectError(ValueError):
    """The command cannot start: unknown --lesson, unusable roster, source neither a zip nor a folder."""


@dataclass(frozen=True)
class FileNaming:
    """One way an LMS (or a person) names submitted files; adding an LMS is adding one of these.

    ``pattern`` must match the whole of the last one, two, ... parts of a file's path in the download
    (shortest first, so a wrapper folder or an unzipped student zip around it does not matter). Groups:
    ``student`` (the LMS's id for the student) and ``filename`` (what the student uploaded; the lesson is
    read from its last part) always; optionally ``name`` (a display name the roster can match),
    ``attempt`` (digits that grow with each upload) and ``lesson`` (a lesson folder).
    """
    lms: str
    about: str
    example: str
    pattern: re.Pattern
    roster_columns: tuple[str, ...]    # roster columns that can hold the ``student`` group's value
    receipt: re.Pattern | None = None  # a file the LMS adds beside each submission, ignored quietly


_BB_STAMP = r"\d{4}(?:-\d\d){5}"
FILE_NAMINGS = (
    # Canvas, the same get_filename, for an assignment that anonymizes students: no name, and
    # "anon_" + the submission's anonymous id in place of the user id. That id is the submission's
    # own (one per student and assignment), so the roster's canvas_anonymous_id may hold several.
    FileNaming(
        "canvas-anonymous", "Canvas 'Download Submissions' of an anonymously graded assignment: "
        "[LATE_]anon_anonymousid_fileid_filename",
        "LATE_anon_gX7kq_1177302_02_backward.ipynb",
        re.compile(r"(?P<late>(?i:late)_)?anon_(?P<student>[A-Za-z0-9]+)_(?P<attempt>\d+)_(?P<filename>.+)"),
        ("canvas_anonymous_id",)),
    # Canvas, lib/content_zipper.rb (instructure/canvas-lms): get_filename joins the student's sortable
    # name (lower case, only word characters), "LATE" when Canvas counts the submission late, and the
    # user id; add_upload_submission appends the file's attachment id and its display name. A later upload
    # is a new attachment, with a larger id, so that id orders a student's files.
    FileNaming(
        "canvas", "Canvas 'Download Submissions': lastfirst[_LATE]_userid_fileid_filename; a re-uploaded "
        "file of the same name gets -1, -2 before its extension",
        "smithjohn_LATE_48213_1177302_02_backward-1.ipynb",
        re.compile(r"(?P<name>[^/_]+)(?P<late>_(?i:late))?_(?P<student>\d+)_(?P<attempt>\d+)_(?P<filename>.+)"),
        ("canvas_id",)),
    # Moodle, mod/assign/locallib.php download_submissions(): the prefix is clean_filename(full name, its
    # "_" turned into spaces, + "_" + the participant id of get_uniqueid_for_user()), or "Participant_<id>"
    # under blind marking. Moodle 4.1 and later put each student's files in the folder
    # prefix_assignsubmission_file/; 3.1 to 4.0 wrote prefix_assignsubmission_file_/, older ones a flat
    # prefix_assignsubmission_file_filename. The id is Moodle's per-assignment participant id (the
    # "Participant <id>" of the grading worksheet), not the user id: the roster's moodle_id column.
    FileNaming(
        "moodle", "Moodle assignment 'Download all submissions': Full Name_participantid_assignsubmission_file/"
        "file (4.1+; with a trailing _ before 4.1, or flat), Participant_id_... under blind marking",
        "Jürgen Müller_2046_assignsubmission_file/02_backward.ipynb",
        re.compile(r"(?P<name>[^/]+?)_(?P<student>\d+)_assignsubmission_file(?:_/|/|_)(?P<filename>.+)"),
        ("moodle_id",)),
    # Blackboard Learn, Grade Center "Assignment File Download": Assignment_username_attempt_
    # YYYY-MM-DD-HH-MM-SS_filename, the attempt's submission time in the server's local time
    # (c.Collect.timezone), and a receipt Assignment_username_attempt_time.txt per attempt.
    FileNaming(
        "blackboard", "Blackboard Grade Center 'Assignment File Download': Assignment_username_attempt_"
        "YYYY-MM-DD-HH-MM-SS_file, with a .txt receipt per attempt",
        "Lesson 2_jsmith7_attempt_2024-03-05-14-22-09_02_backward.ipynb",
        re.compile(r"(?P<assignment>[^/]+)_(?P<student>[^/_]+)_attempt_"
                   r"(?P<attempt>" + _BB_STAMP + r")_(?P<filename>.+)"),
        ("username", "login_id", "email"),
        receipt=re.compile(r"[^/]+_[^/_]+_attempt_" + _BB_STAMP + r"\.txt")),
    FileNaming(
        "lesson-folders", "a folder per student with nbgrader's lesson folder inside, as in submitted/",
        "jsmith7/02_backward/02_backward.ipynb",
        re.compile(r"(?P<student>[^/]+)/(?P<lesson>\d\d_[^/]+)/(?P<filename>[^/]+)"),
        ("student_id", "username", "login_id", "email", "name")),
    FileNaming(
        "student-folders", "a folder per student holding the notebook",
        "jsmith7/02_backward.ipynb",
        re.compile(r"(?P<student>[^/]+)/(?P<filename>[^/]+)"),
        ("student_id", "username", "login_id", "email", "name")),
)
MOODLE_BLIND_NAME = "Participant"  # get_string('participant', 'assign') in English
SEVERAL_IDS = ("canvas_anonymous_id", "moodle_id")  # columns whose cell may list several ids (one per assignment)
KEEPS_IDS = ("moodle",)  # the LMSs whose per-lesson ids export needs back (lms_ids.py)
ROSTER_COLUMNS = ("student_id", "canvas_id", "canvas_anonymous_id", "moodle_id", "username", "login_id", "email",
                  "name")


class Item(NamedTuple):
    """One file of the download and what became of it."""
    source: str
    student: str = ""
    lesson: str = ""
    why: str = ""


@dataclass
class CollectReport:
    placed: list[Item] = field(default_factory=list)
    unchanged: list[Item] = field(default_factory=list)      # submitted/ already holds the same bytes
    superseded: list[Item] = field(default_factory=list)     # an older attempt or a copy; why names the one kept
    skipped: list[Item] = field(default_factory=list)        # not a submission (not a notebook, deep zip)
    unplaced: list[Item] = field(default_factory=list)       # a submission that could not be placed
    conflicts: list[Item] = field(default_factory=list)      # differs from submitted/, left alone
    unreadable: list[Item] = field(default_factory=list)     # placed, but not a readable notebook
    refused: list[Item] = field(default_factory=list)        # too big to read: not placed, reason in ungraded/
    missing: list[tuple[str, str]] = field(default_factory=list)  # (roster student, lesson)
    unread_times: list[Item] = field(default_factory=list)   # a Moodle worksheet time that could not be read

    @property
    def ok(self) -> bool:
        """Everything that is a submission ended up in submitted/, with every time the LMS gave
        (missing students are not an error here)."""
        return not self.unplaced and not self.conflicts and not self.unread_times

    def lines(self) -> list[str]:
        def who(item: Item) -> str:
            return f"{item.student}/{item.lesson} from {item.source}"
        out = [f"collected: {len(self.placed)} placed, {len(self.unchanged)} unchanged, "
               f"{len(self.superseded)} superseded, {len(self.skipped)} skipped, {len(self.unplaced)} not placed, "
               f"{len(self.conflicts)} conflict(s), {len(self.refused)} refused, {len(self.missing)} missing"]
        out += [f"placed {who(i)}" + (f" ({i.why})" if i.why else "") for i in self.placed]
        out += [f"unchanged {who(i)}: submitted/ already holds it" for i in self.unchanged]
        out += [f"superseded {i.source} ({i.student}/{i.lesson}): {i.why}" for i in self.superseded]
        out += [f"UNREADABLE {who(i)}: placed anyway, grading will report it: {i.why}" for i in self.unreadable]
        out += [f"REFUSED {who(i)}: {i.why}" for i in self.refused]
        out += [f"skipped {i.source}: {i.why}" for i in self.skipped]
        out += [f"NOT PLACED {i.source}: {i.why}" for i in self.unplaced]
        out += [f"CONFLICT {who(i)}: {i.why}" for i in self.conflicts]
        out += [f"TIME NOT READ {i.source}: {i.why}" for i in self.unread_times]
        out += [f"missing {student}/{lesson}: on the roster, no submission" for student, lesson in self.missing]
        return out


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


class _File(NamedTuple):
    path: str   # "/"-separated inside the download; an opened inner zip appears as a folder without .zip
    shown: str  # how the report names it
    mtime: float
    size: int   # bytes once read (a zip entry's uncompressed size), known before reading
    read: Callable[[], bytes]


def _is_junk(path: str) -> bool:
    parts = path.split("/")
    return (any(part.startswith(".") or part == "__MACOSX" for part in parts)
            or parts[-1] in {"Thumbs.db", "desktop.ini"})


def _is_unsafe(name: str) -> bool:
    return name.startswith("/") or bool(re.match(r"[A-Za-z]:", name)) or ".." in name.split("/")


def _mib(size: int) -> str:
    return f"{size / 1024**2:.1f} MiB" if size >= 1024**2 else f"{size / 1024:.1f} KiB"


def download_size(source: str) -> int:
    """Bytes the download holds once unpacked (a zip's own directory says), read before anything else."""
    if os.path.isdir(source):
        return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(source)
                   for name in names)
    with zipfile.ZipFile(source) as archive:
        return sum(info.file_size for info in archive.infolist())


def _files(source: str, report: CollectReport, limits: Collect) -> Iterator[_File]:
    """Every file of the download; each is read (``read()``) before the next is asked for."""
    if os.path.isdir(source):
        for folder, subfolders, names in os.walk(source):
            subfolders.sort()
            for name in sorted(names):
                full = os.path.join(folder, name)
                relative = os.path.relpath(full, source).replace(os.sep, "/")
                yield from _opened(_File(relative, relative, os.path.getmtime(full), os.path.getsize(full),
                                         partial(_read, full)), 0, report, limits)
    elif os.path.isfile(source) and zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            yield from _zip_entries(archive, "", "", 0, report, limits)
    else:
        raise CollectError(f"{source} is neither a folder nor a zip file")


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _zip_entries(archive: zipfile.ZipFile, path_prefix: str, shown_prefix: str, depth: int,
                 report: CollectReport, limits: Collect) -> Iterator[_File]:
    for info in archive.infolist():
        name = info.filename.replace("\\", "/")
        if name.endswith("/"):
            continue
        if _is_unsafe(name):
            report.unplaced.append(Item(shown_prefix + name, why="its path leaves the download (absolute or ..); "
                                                                "not extracted, unzip it by hand if it matters"))
            continue
        mtime = time.mktime(info.date_time + (0, 0, -1))
        yield from _opened(_File(path_prefix + name, shown_prefix + name, mtime, info.file_size,
                                 partial(archive.read, info)), depth, report, limits)


def _opened(file: _File, depth: int, report: CollectReport, limits: Collect) -> Iterator[_File]:
    """A zip in the download (a re-zipped export, a student's zip) is looked into like a folder, one level."""
    if not file.path.lower().endswith(".zip") or _is_junk(file.path):
        yield file
        return
    if depth >= 1:
        report.skipped.append(Item(file.shown, why="a zip inside a zip inside the download: not opened; "
                                                   "unzip it and collect the folder"))
        return
    if file.size > limits.max_download_bytes:
        report.skipped.append(Item(file.shown, why=f"a zip of {_mib(file.size)}, over the download limit "
                                                   f"(c.Collect.max_download_bytes): not opened"))
        return
    try:
        inner = zipfile.ZipFile(io.BytesIO(file.read()))
    except (zipfile.BadZipFile, OSError, RuntimeError, ValueError) as error:
        report.skipped.append(Item(file.shown, why=f"not a readable zip ({error})"))
        return
    with inner:
        unpacked = sum(info.file_size for info in inner.infolist())
        if unpacked > limits.max_download_bytes:
            report.skipped.append(Item(file.shown, why=f"a zip that unpacks to {_mib(unpacked)}, over the "
                                                       "download limit (c.Collect.max_download_bytes): not opened"))
            return
        yield from _zip_entries(inner, file.path[:-4] + "/", file.shown + "/", depth + 1, report, limits)


def identify(path: str) -> tuple[FileNaming, re.Match] | None:
    """The first naming (in FILE_NAMINGS order) that fits the end of the path, shortest end first."""
    parts = path.split("/")
    for naming in FILE_NAMINGS:
        for start in range(len(parts) - 1, -1, -1):
            match = naming.pattern.fullmatch("/".join(parts[start:]))
            if match:
                return naming, match
    return None


def lesson_named_by(filename: str, lessons: list[str]) -> str | None:
    """'02_backward.ipynb', '02_backward (1).ipynb' (browser copy), '02_backward-2.ipynb' (Canvas re-upload)."""
    name = filename.rsplit("/", 1)[-1]
    if not name.lower().endswith(".ipynb"):
        return None
    stem = re.sub(r"(?:\s*\(\d+\)|-\d+)+$", "", name[:-len(".ipynb")].strip()).lower()
    return next((lesson for lesson in lessons if lesson.lower() == stem), None)


def _student(naming: FileNaming, match: re.Match, roster: Roster | None) -> tuple[str | None, str]:
    """The student_id for a file, or None and why not."""
    raw, name = match["student"], match.groupdict().get("name")
    if naming.lms == "moodle" and name == MOODLE_BLIND_NAME:
        name = None  # blind marking: the participant id is all there is
    if roster is None:
        safe = _folder_name(f"anon_{raw}" if naming.lms == "canvas-anonymous" else raw)
        return (safe, "") if safe else (None, f"the student id {raw!r} cannot be made into a folder name")
    for value, columns in [(raw, naming.roster_columns)] + ([(name, ("name",))] if name else []):
        hits = roster.students_matching(value, columns)
        if len(hits) > 1:
            return None, f"{value!r} fits several roster students ({', '.join(hits)})"
        if hits:
            return hits[0], ""
    hidden = ("; Canvas hides who submitted it until the assignment's grades are posted: add the id to the "
              "roster's canvas_anonymous_id, collect without a roster to grade it blind, or download again "
              "once grades are posted") if naming.lms == "canvas-anonymous" else ""
    return None, (f"not on the roster: {naming.lms} id {raw!r}" + (f", name {name!r}" if name else "")
                  + f" matches no {'/'.join(naming.roster_columns)}" + (" or name" if name else "") + hidden)


class _Candidate(NamedTuple):
    shown: str
    data: bytes | None      # None: refused unread (too big); ``refused`` says why
    order: tuple[int, float]  # (attempt from the file name, or -1; modification time)
    submitted_at: datetime | None = None  # when the LMS says it was submitted
    late: bool = False        # the LMS marked it late without saying when (Canvas)
    refused: str = ""
    lms_id: tuple[str, str] = ("", "")  # (lms, the LMS's id for the student in this lesson)


def _write(target: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(target), exist_ok=True)
    partial_path = target + ".collecting"
    with open(partial_path, "wb") as handle:
        handle.write(data)
    os.replace(partial_path, target)


def _submitted_at(naming: FileNaming, match: re.Match, zone: str, moodle: SubmissionTimes) -> datetime | None:
    """Blackboard's attempt time, in the server's zone, or Moodle's from its grading worksheet, as UTC."""
    if naming.lms == "moodle":
        return moodle.times.get(match["student"])
    if naming.lms != "blackboard":
        return None
    local = datetime.strptime(match["attempt"], "%Y-%m-%d-%H-%M-%S").replace(tzinfo=ZoneInfo(zone))
    return local.astimezone(timezone.utc)


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


def _timestamp(root: str, lesson: str, kept: _Candidate, due: dict, worksheets: bool) -> tuple[datetime | None, str]:
    """What timestamp.txt should say, and a note for the report when lateness cannot be recorded."""
    if kept.submitted_at:
        return kept.submitted_at, ""
    if worksheets and kept.lms_id[0] == "moodle":
        return None, "no submission time for this participant in the grading worksheet: no late penalty"
    if not kept.late:
        return None, ""
    if lesson not in due:
        due[lesson] = due_date(root, lesson)
    if due[lesson] is None:
        return None, "late (the LMS says so), but the lesson has no due date in the gradebook: no late penalty"
    # Canvas says only that a file is late, not when: recorded just after the due date.
    return due[lesson] + timedelta(seconds=1), "late (the LMS says so, not when): recorded 1 s after the due date"


def _record_time(folder: str, when: datetime | None) -> None:
    path = os.path.join(folder, "timestamp.txt")
    if when is None:
        if os.path.exists(path):
            os.remove(path)
        return
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(when.astimezone(timezone.utc).strftime(TIMESTAMP_FORMAT) + "\n")


def collect(source: str, root: str, lesson: str | None = None, roster: str | None = None,
            force: bool = False, worksheets: list[str] | tuple = ()) -> CollectReport:
    """Place every submission in ``source`` (zip or folder) under ``<root>/submitted/``; see the module doc.

    ``worksheets``: Moodle grading worksheets, whose submission times become the Moodle files' timestamps.
    """
    lessons = assignments(root)
    if lesson is not None and lesson not in lessons:
        raise CollectError(f"unknown lesson {lesson!r}; the lessons are {', '.join(lessons)}")
    limits = Collect(config=course_config(root))
    if not os.path.isdir(source) and not (os.path.isfile(source) and zipfile.is_zipfile(source)):
        raise CollectError(f"{source} is neither a folder nor a zip file")
    total = download_size(source)
    if total > limits.max_download_bytes:
        raise CollectError(f"{source} unpacks to {_mib(total)}, over the download limit of "
                           f"{_mib(limits.max_download_bytes)} (c.Collect.max_download_bytes in nbgrader_config.py); "
                           "nothing was read")
    people = Roster.load(roster) if roster else None
    try:
        moodle = moodle_worksheet.read(list(worksheets), limits.moodle_date_format, limits.timezone)
    except (moodle_worksheet.WorksheetError, OSError, UnicodeDecodeError, csv.Error) as problem:
        raise CollectError(str(problem)) from None
    report = CollectReport(unread_times=[Item(where, why=why) for where, why in moodle.unread])
    found: dict[tuple[str, str], list[_Candidate]] = {}
    lessons_seen = {lesson} if lesson else set()

    for file in _files(source, report, limits):
        basename = file.path.rsplit("/", 1)[-1]
        if _is_junk(file.path) or any(n.receipt and n.receipt.fullmatch(basename) for n in FILE_NAMINGS):
            continue
        if not basename.lower().endswith(".ipynb"):
            report.skipped.append(Item(file.shown, why="not a notebook"))
            continue
        identified = identify(file.path)
        if identified is None:
            report.unplaced.append(Item(file.shown, why="cannot tell whose it is: "
                                                        "no LMS file name and no student folder"))
            continue
        naming, match = identified
        folder_lesson = match.groupdict().get("lesson")
        which = (lesson or lesson_named_by(match["filename"], lessons)
                 or (folder_lesson if folder_lesson in lessons else None))
        if which is None:
            uploaded = match["filename"].rsplit("/", 1)[-1]
            report.unplaced.append(Item(file.shown, why=f"cannot tell the lesson: {uploaded!r} names none of "
                                                        f"{', '.join(lessons)} (use --lesson if it is one)"))
            continue
        lessons_seen.add(which)
        student, why = _student(naming, match, people)
        if student is None:
            report.unplaced.append(Item(file.shown, lesson=which, why=why))
            continue
        attempt = int(re.sub(r"\D", "", match.groupdict().get("attempt") or "") or -1)
        when = _submitted_at(naming, match, limits.timezone, moodle)
        late = bool(match.groupdict().get("late"))
        lms_id = (naming.lms, match["student"])
        if file.size > limits.max_notebook_bytes:
            refused = (f"the notebook is {_mib(file.size)}, over the limit of {_mib(limits.max_notebook_bytes)} "
                       "per notebook: it was not read. A lesson notebook is well under 5 MB; clear the outputs "
                       "(Edit > Clear Outputs of All Cells), save and upload it again")
            found.setdefault((student, which), []).append(
                _Candidate(file.shown, None, (attempt, file.mtime), when, late, refused, lms_id))
            continue
        try:
            data = file.read()
        except Exception as error:  # bad CRC, encrypted entry, unreadable file
            report.unplaced.append(Item(file.shown, student, which, f"could not be read from the download ({error})"))
            continue
        found.setdefault((student, which), []).append(
            _Candidate(file.shown, data, (attempt, file.mtime), when, late, lms_id=lms_id))

    submitted = os.path.realpath(os.path.join(root, "submitted"))
    due: dict[str, datetime | None] = {}
    seen_ids: dict[lms_ids.Key, str] = {}
    for (student, which), candidates in sorted(found.items()):
        candidates.sort(key=lambda c: c.order, reverse=True)
        latest = [c for c in candidates if c.order == candidates[0].order]
        if len({c.data for c in latest}) > 1:
            names = ", ".join(c.shown for c in latest)
            for candidate in candidates:
                report.unplaced.append(Item(candidate.shown, student, which,
                                            f"{len(latest)} different notebooks for {student}/{which} and nothing "
                                            f"tells which is latest ({names}); place the right one by hand"))
            continue
        kept = latest[0]
        if kept.lms_id[0] in KEEPS_IDS:
            seen_ids[(kept.lms_id[0], which, student)] = kept.lms_id[1]
        report.superseded += [Item(c.shown, student, which, f"kept {kept.shown} instead") for c in candidates[1:]]
        target = os.path.join(submitted, student, which, f"{which}.ipynb")
        if os.path.commonpath([os.path.realpath(target), submitted]) != submitted:
            report.unplaced.append(Item(kept.shown, student, which, "its target is outside submitted/; not written"))
            continue
        if kept.data is None:
            record_problem(root, student, which, kept.refused)
            report.refused.append(Item(kept.shown, student, which, kept.refused))
            continue
        when, note = _timestamp(root, which, kept, due, bool(worksheets))
        why = note
        if os.path.exists(target):
            if _read(target) == kept.data:
                _record_time(os.path.dirname(target), when)
                clear_problem(root, student, which)
                report.unchanged.append(Item(kept.shown, student, which))
                continue
            if not force:
                report.conflicts.append(Item(kept.shown, student, which,
                                             f"submitted/{student}/{which}/{which}.ipynb already holds a different "
                                             "notebook; left as it is (--force replaces it)"))
                continue
            why = "; ".join(filter(None, ["replaced a different notebook (--force)", note]))
        _write(target, kept.data)
        _record_time(os.path.dirname(target), when)
        clear_problem(root, student, which)
        report.placed.append(Item(kept.shown, student, which, why))
        problem = unreadable(kept.data)
        if problem:
            report.unreadable.append(Item(kept.shown, student, which, problem))

    lms_ids.record(root, seen_ids)
    if people:
        report.missing = [(student, which) for which in sorted(lessons_seen) for student in people.student_ids
                          if (student, which) not in found
                          and not os.path.exists(os.path.join(submitted, student, which, f"{which}.ipynb"))
                          and not recorded_problem(root, student, which)]
    return report


def add_arguments(parser) -> None:
    parser.add_argument("source", metavar="ZIP_OR_FOLDER", nargs="?", help="an LMS bulk download (Canvas, Moodle, "
                                                                            "Blackboard) or a folder of student folders")
    parser.add_argument("--exchange", action="store_true", help="collect from nbgrader's exchange on a class hub "
                                                                "instead: each student's latest submission")
    parser.add_argument("--lesson", help="the lesson every notebook in the download is for "
                                         "(default: read from each notebook's file name)")
    parser.add_argument("--roster", help="CSV with student_id and any of canvas_id, canvas_anonymous_id, moodle_id, username, login_id, "
                                         "email, name: LMS ids are turned into student_id")
    parser.add_argument("--force", action="store_true", help="replace submitted notebooks that differ")
    parser.add_argument("--moodle-worksheet", action="append", default=[], metavar="CSV",
                        help="a Moodle assignment's grading worksheet (in English): its submission times become "
                             "the Moodle files' timestamps, for nbgrader's late penalty (repeat for each assignment)")


def run(args) -> int:
    """1 when anything could not be placed (or conflicts, or a time could not be read), 2 when collecting
    could not start, else 0."""
    try:
        if args.exchange:  # a class hub's submissions (exchange_inbound.py)
            from .exchange_inbound import collect as collect_exchange
            report = collect_exchange(args.root, args.lesson, args.roster, args.force)
        elif args.source is None:
            raise CollectError("name a download (ZIP_OR_FOLDER), or collect from the hub with --exchange")
        else:
            report = collect(args.source, args.root, args.lesson, args.roster, args.force, args.moodle_worksheet)
    except (CollectError, OSError) as error:
        print(f"collect: {error}")
        return 2
    print("\n".join(report.lines()))
    return 0 if report.ok else 1
