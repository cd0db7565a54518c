"""Which upload each notebook in ``submitted/`` came from, and how recent it was (``collected.csv``).

A later download of the same assignment may hold a newer upload (replace the notebook), the same
one (nothing to do), or an older one than what was collected before (keep the notebook, keep the
older one aside): this file is how ``collect`` tells, per student, without ``--force`` for all.
"""
import csv
import os
from datetime import datetime
from typing import NamedTuple

FILE = "collected.csv"
HEADER = ["student_id", "lesson", "source", "attempt", "mtime", "submitted_at", "lms", "late"]
TIME_UNKNOWN = "time unknown"  # ``late``: the LMS said late, not when (Canvas's LATE); no time is made up


class Upload(NamedTuple):
    source: str
    attempt: int            # from the file name, -1 when it has none
    mtime: float            # the file's time in the download
    submitted_at: str = ""  # ISO time the LMS gave, or ""
    lms: str = ""           # the reader that read it (lms/)
    late: str = ""          # TIME_UNKNOWN when the LMS marked it late without saying when


def newer(candidate: Upload, placed: Upload) -> bool | None:
    """True when ``candidate`` was uploaded after ``placed``, False when before, None when nothing tells."""
    if candidate.submitted_at and placed.submitted_at and candidate.submitted_at != placed.submitted_at:
        return datetime.fromisoformat(candidate.submitted_at) > datetime.fromisoformat(placed.submitted_at)
    if candidate.attempt >= 0 and placed.attempt >= 0 and candidate.attempt != placed.attempt:
        return candidate.attempt > placed.attempt
    if candidate.mtime != placed.mtime:
        return candidate.mtime > placed.mtime
    return None


def read_all(root: str) -> dict[tuple[str, str], Upload]:
    try:
        with open(os.path.join(root, FILE), newline="", encoding="utf-8") as handle:
            return {(row["student_id"], row["lesson"]): Upload(row["source"], int(row["attempt"]), float(row["mtime"]),
                                                               row["submitted_at"], row.get("lms") or "",
                                                               row.get("late") or "") for row in csv.DictReader(handle)}
    except FileNotFoundError:
        return {}


def record(root: str, placed: dict[tuple[str, str], Upload]) -> None:
    """Add this collect's placed uploads (written whole, then moved into place)."""
    if not placed:
        return
    rows = {**read_all(root), **placed}
    path = os.path.join(root, FILE)
    with open(path + ".partial", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows([*key, *upload] for key, upload in sorted(rows.items()))
    os.replace(path + ".partial", path)


def late_time_unknown(root: str) -> set[tuple[str, str]]:
    """(student, lesson) of each notebook its LMS marked late without saying when."""
    return {key for key, upload in read_all(root).items() if upload.late == TIME_UNKNOWN and not upload.submitted_at}


def readers_used(root: str) -> set[str]:
    """The readers (lms/) every collected notebook came through."""
    return {upload.lms for upload in read_all(root).values() if upload.lms}
