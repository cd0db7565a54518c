"""One reader per LMS download, behind one interface: adding an LMS is one module here and its fixtures.

A reader knows how its LMS names the files of a bulk download: whose file it is (an id the roster can
match, sometimes a display name), what the student uploaded, which attempt it is and when it was
submitted. Some LMSs add a small file beside the submissions (Blackboard's ``.txt`` receipts, D2L's
``index.html``): a reader may read those first and let what they say win over the file name.

``READERS`` is tried in order, most specific naming first; the plain folder namings come last.
"""
import re
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple


class Facts(NamedTuple):
    """What a receipt says about one submitted file, found by the file's name in the download."""
    student: str = ""                    # the LMS's exact id for the student
    submitted_at: datetime | None = None  # as UTC


@dataclass(frozen=True)
class Context:
    """What a reader needs besides the file name: the server's zone and any submission times given."""
    timezone: str = "UTC"
    times: dict | None = None  # reader name -> {the LMS's student id -> submission time (UTC)}


class Reader:
    """How one LMS names a download's files. Subclasses set the attributes and override what differs.

    ``pattern`` must match the whole of a path from the upload's own name down: the upload is the
    path's first part (a file the LMS named, or a folder it named for a student), and what lies below
    it is what the student handed in. Groups: ``student`` (the LMS's id) and ``filename`` (what the
    student uploaded) always; optionally ``name`` (a display name), ``attempt`` (digits that grow with
    each upload), ``lesson`` (a lesson folder) and ``late`` (the LMS says late, not when). A naming of
    a file (Canvas, Blackboard, D2L) matches one part only, so a folder is never taken for one.
    """
    name = ""
    about = ""
    example = ""
    pattern: re.Pattern = re.compile(r"(?!)")
    roster_columns: tuple[str, ...] = ()  # roster columns that can hold the ``student`` group's value
    keeps_ids = False     # export needs each lesson's id back (lms_ids.py)
    from_lms = True       # an LMS's own naming (not a folder a person made)

    def match(self, path: str) -> re.Match | None:
        """The naming of ``path``, read from its first part (the upload) down."""
        return self.pattern.fullmatch(path)

    def is_receipt(self, path: str) -> bool:
        """A file this LMS adds beside the submissions: read by ``read_receipt``, never a submission."""
        return False

    def read_receipt(self, path: str, data: bytes, context: Context) -> dict[str, Facts]:
        """The download's file name (last part) -> what the receipt says about it."""
        return {}

    def candidates(self, match: re.Match) -> list[str]:
        """The ids the ``student`` group may stand for, tried against the roster in turn."""
        return [match["student"]]

    def display_name(self, match: re.Match) -> str | None:
        return match.groupdict().get("name")

    def attempt(self, match: re.Match) -> int:
        """Grows with each upload of one student (an attachment id, a time's digits); -1 when unknown."""
        return int(re.sub(r"\D", "", match.groupdict().get("attempt") or "") or -1)

    def submitted_at(self, match: re.Match, context: Context) -> datetime | None:
        return (context.times or {}).get(self.name, {}).get(match["student"])

    def late_unknown_time(self, match: re.Match) -> bool:
        """The LMS marks the file late without saying when (Canvas)."""
        return bool(match.groupdict().get("late"))

    def folder_id(self, raw: str) -> str:
        """The id a file is placed under when there is no roster."""
        return raw


from . import blackboard, canvas, d2l, folders, moodle  # noqa: E402  (each module defines its readers)

READERS: tuple[Reader, ...] = (canvas.ANONYMOUS, canvas.NAMED, moodle.READER, blackboard.READER, d2l.READER,
                               folders.LESSON_FOLDERS, folders.STUDENT_FOLDERS)


def identify(path: str) -> tuple[Reader, re.Match] | None:
    """The first reader (in READERS order) whose naming fits ``path``, read from the upload's name (its
    first part) down: what a student put inside an upload never names anyone."""
    for reader in READERS:
        found = reader.match(path)
        if found:
            return reader, found
    return None


def names_an_upload(name: str) -> bool:
    """Whether one file or folder name is an LMS's naming of an upload (or one of its receipts)."""
    return any(reader.from_lms and (reader.match(name) or reader.match(name + "/x") or reader.is_receipt(name))
               for reader in READERS)


def receipt_reader(name: str) -> Reader | None:
    """The reader whose receipt this file name (one part) is, if any."""
    return next((reader for reader in READERS if reader.is_receipt(name)), None)
