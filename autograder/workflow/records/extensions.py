"""Per-student due dates: the course's own file, and what an LMS download said (``lms_extensions.csv``).

The course's file (``c.LateWork.extensions_file``, ``extensions.csv`` beside ``nbgrader_config.py`` by
default) is the instructor's, one row per extension: ``student_id,lesson,due`` with ``due`` as
``YYYY-MM-DD HH:MM`` in ``c.Collect.timezone``. ``collect`` writes what the LMS said to
``lms_extensions.csv`` (Moodle's grading worksheet: "Extension granted until ..."); a row of the
course's file wins over the LMS's for the same student and lesson.
"""
import csv
import os
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

LMS_FILE = "lms_extensions.csv"
HEADER = ["student_id", "lesson", "due", "said_by"]
COURSE_FORMAT = "%Y-%m-%d %H:%M"


class ExtensionsError(ValueError):
    """A row of the course's extensions file does not read: said whole, never guessed at."""


def read_course_file(path: str, zone: str) -> dict[tuple[str, str], datetime]:
    """(student, lesson) -> the student's due date (UTC) from the course's file; {} when there is none."""
    if not os.path.exists(path):
        return {}
    found = {}
    with open(path, newline="", encoding="utf-8-sig") as handle:
        for number, row in enumerate(csv.DictReader(handle), start=2):
            row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
            if not any(row.values()):
                continue
            try:
                local = datetime.strptime(row["due"], COURSE_FORMAT).replace(tzinfo=ZoneInfo(zone))
                found[(row["student_id"], row["lesson"])] = local.astimezone(timezone.utc)
            except (KeyError, ValueError) as problem:
                raise ExtensionsError(f"{path}, line {number}: needs student_id, lesson and due as "
                                      f"YYYY-MM-DD HH:MM ({problem})") from None
    return found


def read_lms(root: str) -> dict[tuple[str, str], tuple[datetime, str]]:
    """(student, lesson) -> (due date in UTC, which LMS file said so)."""
    try:
        with open(os.path.join(root, LMS_FILE), newline="", encoding="utf-8") as handle:
            return {(r["student_id"], r["lesson"]): (datetime.fromisoformat(r["due"]), r["said_by"])
                    for r in csv.DictReader(handle)}
    except FileNotFoundError:
        return {}


def record_lms(root: str, seen: dict[tuple[str, str], tuple[datetime, str]]) -> None:
    """Add the extensions this collect read (a later download's word replaces an earlier one's)."""
    if not seen:
        return
    rows = read_lms(root) | seen
    path = os.path.join(root, LMS_FILE)
    with open(path + ".partial", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows([*key, due.isoformat(), said] for key, (due, said) in sorted(rows.items()))
    os.replace(path + ".partial", path)


def due_dates(root: str, course_file: str, zone: str) -> dict[tuple[str, str], tuple[datetime, str]]:
    """(student, lesson) -> (their own due date in UTC, where it comes from): the LMS's, then the course's."""
    path = course_file if os.path.isabs(course_file) else os.path.join(root, course_file)
    return read_lms(root) | {key: (due, os.path.basename(path)) for key, due in read_course_file(path, zone).items()}
