"""The LMS id each collected submission came with, kept for the grades going back (``lms_ids.csv``).

Moodle numbers a student afresh in every assignment ("Participant 2046" in one, another number in
the next), and its grading worksheet finds a student by that number alone. ``collect`` reads it in
each file's name, so it writes it down here, one row per LMS, lesson and student; ``export`` reads
it back to fill each lesson's worksheet. A later collect replaces what it saw again and keeps the rest.
"""
import csv
import os

FILE = "lms_ids.csv"
HEADER = ["lms", "lesson", "student_id", "lms_id"]

Key = tuple[str, str, str]  # (lms, lesson, student_id)


def _path(root: str) -> str:
    return os.path.join(root, FILE)


def read_all(root: str) -> dict[Key, str]:
    try:
        with open(_path(root), newline="", encoding="utf-8") as handle:
            return {(row["lms"], row["lesson"], row["student_id"]): row["lms_id"] for row in csv.DictReader(handle)
                    if all(row.get(column) for column in HEADER)}
    except FileNotFoundError:
        return {}


def record(root: str, seen: dict[Key, str]) -> None:
    """Add what this collect saw to the file (written whole, then moved into place).

    An id seen again under another student (a roster put right) is that student's alone from now on.
    """
    if not seen:
        return
    claimed = {(lms, lesson, value) for (lms, lesson, _), value in seen.items()}
    ids = {key: value for key, value in read_all(root).items() if (key[0], key[1], value) not in claimed}
    ids.update(seen)
    partial = _path(root) + ".partial"
    with open(partial, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows([*key, value] for key, value in sorted(ids.items()))
    os.replace(partial, _path(root))


def ids_of(root: str, lms: str) -> dict[str, dict[str, str]]:
    """lesson -> student_id -> the LMS's id for that student in that lesson."""
    by_lesson: dict[str, dict[str, str]] = {}
    for (which, lesson, student), value in read_all(root).items():
        if which == lms:
            by_lesson.setdefault(lesson, {})[student] = value
    return by_lesson
