"""Collect from nbgrader's exchange: each student's latest submission of each lesson into submitted/.

On a class hub a student submits from the Assignments tab, and nbgrader's ``submit`` writes
``<exchange>/<course>/inbound/<student>+<lesson>+<timestamp>+<random>/`` as that student's system
user. ``latest_submissions`` reads that folder and yields, per student and lesson, the latest
submission that may be trusted; ``collect`` places each like the LMS readers place a download (the
same ``CollectReport``, statuses and reasons), so grade, feedback and export need nothing new.

Choices made here:
- The inbound folder is world-writable by design (students must be able to submit), and nbgrader's
  own ``submit --student bob`` writes a folder in another student's name. So a submission counts only
  when its folder and files belong to the system user it names (``c.ExchangeCollect.check_owner``);
  one written by any other account is listed NOT PLACED with whose it is, and the student's own
  latest submission is kept instead.
- Only regular files are read, opened without following links: a link in a submission (to the
  gradebook, to another student's home) is refused, never read with the instructor's rights.
- ``timestamp.txt`` and ``submission_secret.txt`` are kept verbatim beside the notebook: the first is
  nbgrader's late penalty's time, the second the key under which ``release_feedback`` files the
  feedback and the student's ``fetch_feedback`` finds it. Nothing else of the folder is placed.
- A newer submission replaces what submitted/ holds (a student may resubmit until the instructor
  grades); an older or equally old different one is a conflict unless ``--force``, as for the LMS.
"""
import os
import pwd
import re
import stat
from datetime import datetime
from typing import Callable, Iterator, NamedTuple

from traitlets import Bool
from traitlets.config import Configurable

from ..course_dir import assignments
from ..grading.batch.notebook_size import NotebookLimits
from .collect import CollectError, Roster, _folder_name, _read, _write
from .collect_report import CollectReport, Item
from .download_files import mib as _mib
from .lms_settings import Collect, course_config
from .status import clear_problem, record_problem, unreadable
from .status import problem as recorded_problem

KEPT_FILES = ("timestamp.txt", "submission_secret.txt")  # beside the notebook, verbatim
SMALL_FILE = 4096  # bytes: the most timestamp.txt or submission_secret.txt may hold
_NAME = re.compile(r"(?P<student>[^+/]+)\+(?P<lesson>[^+/]+)\+(?P<timestamp>[^+/]+)(?:\+[A-Za-z0-9_=-]+)?")


class ExchangeCollect(Configurable):
    check_owner = Bool(
        True, help="Place a submission only when its inbound folder and files belong to the system user "
                   "named in it, so no student can hand in work in a classmate's name (nbgrader's "
                   "`submit --student`). Turn off only where one service account writes the exchange "
                   "for everyone.").tag(config=True)


class Submission(NamedTuple):
    """One student's latest trusted submission of one lesson, read into memory."""
    folder: str                # its name in inbound/
    student: str
    lesson: str
    submitted_at: datetime     # UTC, from the folder's name (nbgrader's own order)
    notebook: bytes | None     # None: refused unread, ``refused`` says why
    kept: dict[str, bytes]     # KEPT_FILES present, verbatim
    refused: str = ""


def exchange_inbound(root: str) -> str:
    """``<Exchange.root>/<course_id>/inbound`` from the course's nbgrader_config.py."""
    config = course_config(root)
    course_id = config.CourseDirectory.get("course_id") or config.Exchange.get("course_id")
    exchange = config.Exchange.get("root") or "/srv/nbgrader/exchange"
    if not course_id:
        raise CollectError("nbgrader_config.py names no course (c.CourseDirectory.course_id): "
                           "the exchange cannot be found")
    return os.path.join(exchange, course_id, "inbound")


def _uid_of(student: str) -> int | None:
    try:
        return pwd.getpwnam(student).pw_uid
    except KeyError:
        return None


def _owner(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _read_regular(folder_fd: int, name: str, limit: int) -> tuple[bytes | None, int, str]:
    """(bytes or None, owner uid, why not): the file, opened without following a link."""
    info = os.lstat(name, dir_fd=folder_fd)
    if stat.S_ISLNK(info.st_mode):
        return None, info.st_uid, "a link, not a file: not followed"
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder_fd)
    except OSError as error:
        return None, info.st_uid, f"could not be opened ({error.strerror})"
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None, info.st_uid, "not a regular file"
        if info.st_size > limit:
            return None, info.st_uid, f"it is {_mib(info.st_size)}, over the limit of {_mib(limit)}"
        return handle.read(limit + 1), info.st_uid, ""


def _read_submission(inbound: str, name: str, student: str, lesson: str, when: datetime,
                     limits: Collect, uid: int | None) -> Submission | str:
    """The submission in ``inbound/name``, or why it cannot be trusted."""
    path = os.path.join(inbound, name)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        return "not a submission folder (a file or a link): not followed"
    if uid is not None and info.st_uid != uid:
        return f"written by {_owner(info.st_uid)}, not by {student}'s own account: not placed in {student}'s name"
    folder_fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        kept = {}
        for extra in KEPT_FILES:
            if os.path.lexists(os.path.join(path, extra)):
                data, owner, why = _read_regular(folder_fd, extra, SMALL_FILE)
                if why or (uid is not None and owner != uid):
                    return f"its {extra} is not {student}'s own small file ({why or 'written by ' + _owner(owner)})"
                kept[extra] = data
        notebook = f"{lesson}.ipynb"
        if not os.path.lexists(os.path.join(path, notebook)):
            return f"holds no {notebook}"
        data, owner, why = _read_regular(folder_fd, notebook, limits.max_notebook_bytes)
        if why and not why.startswith("it is "):
            return f"its {notebook}: {why}"
        if uid is not None and owner != uid:
            return f"its {notebook} was written by {_owner(owner)}, not by {student}: not placed"
        if why:
            return Submission(name, student, lesson, when, None, kept,
                              f"the notebook {why} per notebook: it was not read. A lesson notebook is well "
                              "under 5 MB; clear the outputs (Edit > Clear Outputs of All Cells), save and "
                              "submit again")
        if too_much := NotebookLimits(config=limits.config).refusal(data):
            return Submission(name, student, lesson, when, None, kept, too_much)
        return Submission(name, student, lesson, when, data, kept)
    finally:
        os.close(folder_fd)


def latest_submissions(inbound: str, lessons: list[str], limits: Collect, report: CollectReport,
                       check_owner: bool = True, uid_of: Callable[[str], int | None] | None = None,
                       ) -> Iterator[Submission]:
    """Each student's latest trusted submission per lesson; every other folder gets a line in ``report``.

    ``uid_of``: the uid of a student's system user, or None (default: the system's user database).
    """
    uid_of = uid_of or _uid_of
    found: dict[tuple[str, str], list[tuple[datetime, str]]] = {}
    for name in sorted(os.listdir(inbound)):
        match = _NAME.fullmatch(name)
        if name.startswith("."):
            continue
        if match is None:
            report.skipped.append(Item(name, why="not an nbgrader submission (student+lesson+timestamp)"))
            continue
        student, lesson = match["student"], match["lesson"]
        if lesson not in lessons:
            report.unplaced.append(Item(name, student, why=f"names no lesson of the course ({', '.join(lessons)})"))
            continue
        if _folder_name(student) != student:
            report.unplaced.append(Item(name, lesson=lesson, why=f"the student id {student!r} cannot be a folder name"))
            continue
        try:
            when = parse_utc(match["timestamp"])
        except (ValueError, OverflowError):
            report.unplaced.append(Item(name, student, lesson, f"its time {match['timestamp']!r} does not read"))
            continue
        found.setdefault((student, lesson), []).append((when, name))
    for (student, lesson), folders in sorted(found.items()):
        uid = uid_of(student) if check_owner else None
        if check_owner and uid is None:
            for _, name in folders:
                report.unplaced.append(Item(name, student, lesson, f"no system user {student}: whose it is cannot be checked"))
            continue
        kept = None
        for when, name in sorted(folders, reverse=True):
            if kept is not None:
                report.superseded.append(Item(name, student, lesson, f"kept {kept.folder} instead"))
                continue
            read = _read_submission(inbound, name, student, lesson, when, limits, uid)
            if isinstance(read, str):
                report.unplaced.append(Item(name, student, lesson, read))
            else:
                kept = read
        if kept is not None:
            yield kept


def parse_utc(text: str) -> datetime:
    """nbgrader's reading of a submission time, imported only when a time is read: the CLI imports
    this module for every command, and ``grade`` with nothing to do must not load nbgrader."""
    from nbgrader.utils import parse_utc as nbgrader_parse_utc
    return nbgrader_parse_utc(text)


def _older_than(folder: str, when: datetime) -> bool:
    """Whether the submission placed in ``folder`` was submitted before ``when`` (no time: unknown, no)."""
    try:
        with open(os.path.join(folder, "timestamp.txt"), encoding="utf-8") as handle:
            return parse_utc(handle.read().strip()) < when
    except (OSError, ValueError, OverflowError):
        return False


def _place(submitted: str, root: str, item: Submission, force: bool, report: CollectReport) -> None:
    folder = os.path.join(submitted, item.student, item.lesson)
    target = os.path.join(folder, f"{item.lesson}.ipynb")
    if item.notebook is None:
        record_problem(root, item.student, item.lesson, item.refused)
        report.refused.append(Item(item.folder, item.student, item.lesson, item.refused))
        return
    why = ""
    if os.path.exists(target):
        if _read(target) == item.notebook:
            report.unchanged.append(Item(item.folder, item.student, item.lesson))
            return
        if _older_than(folder, item.submitted_at):
            why = "replaced an older submission"
        elif force:
            why = "replaced a different notebook (--force)"
        else:
            report.conflicts.append(Item(item.folder, item.student, item.lesson,
                                         f"submitted/{item.student}/{item.lesson}/ holds a different notebook that is "
                                         "not older; left as it is (--force replaces it)"))
            return
    _write(target, item.notebook)
    for name in KEPT_FILES:
        if name in item.kept:
            _write(os.path.join(folder, name), item.kept[name])
        elif os.path.exists(os.path.join(folder, name)):
            os.remove(os.path.join(folder, name))
    clear_problem(root, item.student, item.lesson)
    report.placed.append(Item(item.folder, item.student, item.lesson, why))
    problem = unreadable(item.notebook)
    if problem:
        report.unreadable.append(Item(item.folder, item.student, item.lesson, problem))


def _released(inbound: str) -> list[str]:
    """The lessons in the exchange's outbound/, beside inbound/: those a student can be missing."""
    outbound = os.path.join(os.path.dirname(inbound), "outbound")
    return sorted(os.listdir(outbound)) if os.path.isdir(outbound) else []


def collect(root: str, lesson: str | None = None, roster: str | None = None, force: bool = False,
            inbound: str | None = None) -> CollectReport:
    """Place the exchange's latest submissions under ``<root>/submitted/``; see the module doc."""
    lessons = assignments(root)
    if lesson is not None and lesson not in lessons:
        raise CollectError(f"unknown lesson {lesson!r}; the lessons are {', '.join(lessons)}")
    inbound = inbound or exchange_inbound(root)
    if not os.path.isdir(inbound):
        raise CollectError(f"{inbound} is not a folder: has any lesson been released to the exchange "
                           "(nbgrader release_assignment)?")
    config = course_config(root)
    limits, settings = Collect(config=config), ExchangeCollect(config=config)
    people = Roster.load(roster) if roster else None
    report = CollectReport()
    submitted = os.path.join(root, "submitted")
    for item in latest_submissions(inbound, [lesson] if lesson else lessons, limits, report, settings.check_owner):
        if people and item.student not in people.students_matching(item.student, ("student_id", "username")):
            report.unplaced.append(Item(item.folder, item.student, item.lesson, "not on the roster"))
            continue
        _place(submitted, root, item, force, report)
    if people:
        released = _released(inbound)
        seen = {(i.student, i.lesson) for i in report.placed + report.unchanged + report.refused}
        report.missing = [(student, which) for which in ([lesson] if lesson else released)
                          for student in people.student_ids
                          if (student, which) not in seen
                          and not os.path.exists(os.path.join(submitted, student, which, f"{which}.ipynb"))
                          and not recorded_problem(root, student, which)]
    return report
