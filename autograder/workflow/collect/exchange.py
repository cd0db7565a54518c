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
- The folder is the student's, and so are its name and its ``timestamp.txt``: neither says when it
  arrived. The exchange does: a notebook's change time (ctime), which no user can set back, is when
  its content last arrived. Each student's latest submission is the one whose notebook arrived last,
  and what ``submitted/<student>/<lesson>/timestamp.txt`` says (nbgrader's late penalty reads it) is
  the stated time when it is within ``c.ExchangeCollect.time_tolerance`` of the arrival (submit
  writes it just before copying), else the arrival, with a TIME NOT TRUSTED line saying both. A
  ``timestamp.txt`` that is missing, a link, a pipe, too big or another account's is not read as a
  time either. A later collect of the same notebook keeps the time recorded when it was first seen.
- ``submission_secret.txt`` is kept verbatim beside the notebook: the key under which nbgrader's
  ``release_feedback`` files the feedback and the student's ``fetch_feedback`` finds it. One that is
  not the student's own small file refuses the submission. Nothing else of the folder is placed.
- A newer submission replaces what submitted/ holds (a student may resubmit until the instructor
  grades); an older or equally old different one is a conflict unless ``--force``, as for the LMS.

Another student could move a submission's change time later (``rename`` in nbgrader's 0777
submission folder) only by knowing the folder's name, which nbgrader makes unguessable (a random
suffix) in an inbound folder students cannot list (the hub's ``hub/classroom.py``).
"""
import os
import pwd
import re
import stat
from datetime import datetime, timezone
from typing import Callable, Iterator, NamedTuple

from traitlets import Bool, Float
from traitlets.config import Configurable

from ...course_dir import assignments
from ...grading.batch.notebook_size import NotebookLimits
from .download import TIMESTAMP_FORMAT, CollectError, record_time
from .report import CollectReport, Item
from .download_files import mib as _mib
from ..lms_settings import Collect, course_config
from ..records.roster import Roster, RosterError, folder_name
from ..records.status import clear_problem, record_problem, unreadable
from ..records.status import problem as recorded_problem
from ..records.replaced import keep_replaced

TIMESTAMP, SECRET = "timestamp.txt", "submission_secret.txt"
SMALL_FILE = 4096  # bytes: the most timestamp.txt or submission_secret.txt may hold
_NAME = re.compile(r"(?P<student>[^+/]+)\+(?P<lesson>[^+/]+)\+(?P<timestamp>[^+/]+)(?:\+[A-Za-z0-9_=-]+)?")


class ExchangeCollect(Configurable):
    check_owner = Bool(
        True, help="Place a submission only when its inbound folder and files belong to the system user "
                   "named in it, so no student can hand in work in a classmate's name (nbgrader's "
                   "`submit --student`). Turn off only where one service account writes the exchange "
                   "for everyone.").tag(config=True)
    time_tolerance = Float(
        60.0, help="Seconds a submission's timestamp.txt may differ from when its notebook arrived in the "
                   "exchange (the file's change time) and still be recorded as it says: nbgrader's submit "
                   "writes the time just before it copies, and a hub's machines may differ a little. "
                   "Beyond it, the arrival is recorded for the late penalty and both are listed "
                   "(TIME NOT TRUSTED).").tag(config=True)


class Submission(NamedTuple):
    """One student's latest trusted submission of one lesson, read into memory."""
    folder: str                # its name in inbound/
    student: str
    lesson: str
    submitted_at: datetime     # UTC: what timestamp.txt in submitted/ says (see the module doc)
    notebook: bytes | None     # None: refused unread, ``refused`` says why
    secret: bytes | None       # submission_secret.txt, verbatim
    refused: str = ""
    distrusted: str = ""       # why the stated time was not recorded


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


class _Read(NamedTuple):
    data: bytes | None
    uid: int
    ctime: float
    why: str = ""  # why not read


def _read_regular(folder_fd: int, name: str, limit: int) -> _Read:
    """The file, opened without following a link, or why not."""
    info = os.lstat(name, dir_fd=folder_fd)
    if stat.S_ISLNK(info.st_mode):
        return _Read(None, info.st_uid, info.st_ctime, "a link, not a file: not followed")
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder_fd)
    except OSError as error:
        return _Read(None, info.st_uid, info.st_ctime, f"could not be opened ({error.strerror})")
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return _Read(None, info.st_uid, info.st_ctime, "not a regular file")
        if info.st_size > limit:
            return _Read(None, info.st_uid, info.st_ctime, f"it is {_mib(info.st_size)}, over the limit of {_mib(limit)}")
        return _Read(handle.read(limit + 1), info.st_uid, info.st_ctime)


def arrival(inbound: str, name: str, lesson: str) -> float:
    """When the exchange saw the submission's notebook last change (its ctime), else the folder's."""
    for path in (os.path.join(inbound, name, f"{lesson}.ipynb"), os.path.join(inbound, name)):
        try:
            return os.lstat(path).st_ctime
        except OSError:
            continue
    return 0.0


def _stated_time(folder_fd: int, path: str, student: str, uid: int | None, arrived: datetime,
                 tolerance: float) -> tuple[datetime, str]:
    """(the time to record, why the stated one was not): see the module doc."""
    shown = arrived.strftime(TIMESTAMP_FORMAT)
    if not os.path.lexists(os.path.join(path, TIMESTAMP)):
        return arrived, f"no {TIMESTAMP}: the arrival {shown} recorded"
    read = _read_regular(folder_fd, TIMESTAMP, SMALL_FILE)
    if read.why or (uid is not None and read.uid != uid):
        return arrived, (f"its {TIMESTAMP} is not {student}'s own small file ({read.why or 'written by ' + _owner(read.uid)}): "
                         f"not read; the arrival {shown} recorded")
    text = read.data.decode("utf-8", errors="replace").strip()
    try:
        stated = parse_utc(text)
    except (ValueError, OverflowError):
        return arrived, f"its {TIMESTAMP} {text[:80]!r} does not read as a time: the arrival {shown} recorded"
    if abs((stated - arrived).total_seconds()) <= tolerance:
        return stated, ""
    return arrived, (f"its {TIMESTAMP} says {stated.strftime(TIMESTAMP_FORMAT)}, but the notebook arrived at "
                     f"{shown} (the exchange's change time): the arrival recorded, for the late penalty")


def _read_submission(inbound: str, name: str, student: str, lesson: str, limits: Collect, uid: int | None,
                     tolerance: float) -> Submission | str:
    """The submission in ``inbound/name``, or why it is not the student's (a string). A folder of the
    student's own whose content cannot be read is theirs, refused with the reason (their status)."""
    path = os.path.join(inbound, name)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        return "not a submission folder (a file or a link): not followed"
    if uid is not None and info.st_uid != uid:
        return f"written by {_owner(info.st_uid)}, not by {student}'s own account: not placed in {student}'s name"

    def refused(why: str) -> Submission:
        return Submission(name, student, lesson, datetime.fromtimestamp(info.st_ctime, timezone.utc), None, None,
                          f"your submission {why}, so it was not read: submit it again from the Assignments tab")
    folder_fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        secret = None
        if os.path.lexists(os.path.join(path, SECRET)):
            read = _read_regular(folder_fd, SECRET, SMALL_FILE)
            if read.why or (uid is not None and read.uid != uid):
                return refused(f"holds a {SECRET} that is not {student}'s own small file "
                               f"({read.why or 'written by ' + _owner(read.uid)})")
            secret = read.data
        notebook = f"{lesson}.ipynb"
        if not os.path.lexists(os.path.join(path, notebook)):
            return refused(f"holds no {notebook}")
        read = _read_regular(folder_fd, notebook, limits.max_notebook_bytes)
        if read.why and not read.why.startswith("it is "):
            return refused(f"holds a {notebook} that is {read.why}")
        if uid is not None and read.uid != uid:
            return f"its {notebook} was written by {_owner(read.uid)}, not by {student}: not placed"
        arrived = datetime.fromtimestamp(read.ctime, timezone.utc)
        when, distrusted = _stated_time(folder_fd, path, student, uid, arrived, tolerance)
        if read.why:
            return Submission(name, student, lesson, when, None, secret,
                              f"the notebook {read.why} per notebook: it was not read. A lesson notebook is well "
                              "under 5 MB; clear the outputs (Edit > Clear Outputs of All Cells), save and "
                              "submit again", distrusted)
        if too_much := NotebookLimits(config=limits.config).refusal(read.data):
            return Submission(name, student, lesson, when, None, secret, too_much, distrusted)
        return Submission(name, student, lesson, when, read.data, secret, "", distrusted)
    finally:
        os.close(folder_fd)


def latest_submissions(inbound: str, lessons: list[str], limits: Collect, report: CollectReport,
                       check_owner: bool = True, uid_of: Callable[[str], int | None] | None = None,
                       tolerance: float = ExchangeCollect.time_tolerance.default_value) -> Iterator[Submission]:
    """Each student's latest trusted submission per lesson; every other folder gets a line in ``report``.

    ``uid_of``: the uid of a student's system user, or None (default: the system's user database).
    """
    uid_of = uid_of or _uid_of
    found: dict[tuple[str, str], list[tuple[float, datetime, str]]] = {}
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
        if folder_name(student) != student:
            report.unplaced.append(Item(name, lesson=lesson, why=f"the student id {student!r} cannot be a folder name"))
            continue
        try:
            named = parse_utc(match["timestamp"])
        except (ValueError, OverflowError):
            report.unplaced.append(Item(name, student, lesson, f"its time {match['timestamp']!r} does not read"))
            continue
        found.setdefault((student, lesson), []).append((arrival(inbound, name, lesson), named, name))
    for (student, lesson), folders in sorted(found.items()):
        uid = uid_of(student) if check_owner else None
        if check_owner and uid is None:
            for *_, name in folders:
                report.unplaced.append(Item(name, student, lesson, f"no system user {student}: whose it is cannot be checked"))
            continue
        kept = None
        for *_, name in sorted(folders, reverse=True):  # the notebook that arrived last first
            if kept is not None:
                report.superseded.append(Item(name, student, lesson, f"kept {kept.folder} instead"))
                continue
            read = _read_submission(inbound, name, student, lesson, limits, uid, tolerance)
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
    return nbgrader_parse_utc(text).replace(tzinfo=timezone.utc)


def _older_than(folder: str, when: datetime) -> bool:
    """Whether the submission placed in ``folder`` was submitted before ``when`` (no time: unknown, no)."""
    try:
        with open(os.path.join(folder, TIMESTAMP), encoding="utf-8") as handle:
            return parse_utc(handle.read().strip()) < when
    except (OSError, ValueError, OverflowError):
        return False


def _same(path: str, data: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read() == data


def _write(target: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target + ".collecting", "wb") as handle:
        handle.write(data)
    os.replace(target + ".collecting", target)


def _place(submitted: str, root: str, item: Submission, force: bool, report: CollectReport) -> None:
    folder = os.path.join(submitted, item.student, item.lesson)
    target = os.path.join(folder, f"{item.lesson}.ipynb")
    if item.notebook is None:
        record_problem(root, item.student, item.lesson, item.refused)
        report.refused.append(Item(item.folder, item.student, item.lesson, item.refused))
        return
    why = ""
    if os.path.exists(target):
        if _same(target, item.notebook):
            report.unchanged.append(Item(item.folder, item.student, item.lesson))  # its time stays as first recorded
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
        why += f"; the one before is kept in {keep_replaced(root, item.student, item.lesson)}"
    _write(target, item.notebook)
    record_time(folder, item.submitted_at)
    if item.secret is not None:
        _write(os.path.join(folder, SECRET), item.secret)
    elif os.path.exists(os.path.join(folder, SECRET)):
        os.remove(os.path.join(folder, SECRET))
    clear_problem(root, item.student, item.lesson)
    report.placed.append(Item(item.folder, item.student, item.lesson, why))
    if item.distrusted:
        report.distrusted.append(Item(item.folder, item.student, item.lesson, item.distrusted))
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
    try:
        people = Roster.load(roster) if roster else None
    except RosterError as problem:
        raise CollectError(str(problem)) from None
    report = CollectReport()
    submitted = os.path.join(root, "submitted")
    for item in latest_submissions(inbound, [lesson] if lesson else lessons, limits, report, settings.check_owner,
                                   tolerance=settings.time_tolerance):
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
