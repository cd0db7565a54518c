"""A CSV read back as Moodle's grading worksheet upload reads it, to check exports/moodle/ against the real rules.

The rules are those of Moodle's ``mod/assign/feedback/offline`` (``importgradeslib.php`` and
``process_import_grades`` in ``locallib.php``), in an English session:
- the columns are found by their names: ``Identifier``, ``Grade`` and ``Last modified (grade)``;
  a file without all three is refused;
- a row's student is the participant id after ``Participant `` in its identifier; a row Moodle does
  not know is passed over;
- a grade is not changed when the new one is blank, negative, the same, above the assignment's
  Maximum grade, or when the grade in Moodle was changed more than 60 s after the row's
  ``Last modified (grade)`` (unless "Allow updating records that have been modified more recently");
  a worksheet downloaded before any grading says "-" there (no time), and then any grade changed in
  Moodle counts as more recent (read here as PHP's ``strtotime`` gives false for it; not run against
  a Moodle site).
"""
import csv
from datetime import datetime

PARTICIPANT = "Participant "


class NotImportable(ValueError):
    pass


def parse_like_moodle(path: str, maximum: float, participants: set[str],
                      changed_in_moodle: dict[str, datetime] | None = None) -> dict[str, float]:
    """participant id -> the grade Moodle would store."""
    changed_in_moodle = changed_in_moodle or {}
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    header = rows[0]
    try:
        ident, grade, modified = (header.index(name) for name in ("Identifier", "Grade", "Last modified (grade)"))
    except ValueError as missing:
        raise NotImportable(f"{path}: {missing}") from None
    updates = {}
    for row in rows[1:]:
        participant = row[ident][len(PARTICIPANT):]
        if participant not in participants or row[grade].strip() == "":
            continue
        value = float(row[grade])
        stamp = None if row[modified].strip() in ("", "-") else datetime.fromisoformat(row[modified])
        stale = participant in changed_in_moodle and (
            stamp is None or changed_in_moodle[participant].timestamp() > stamp.timestamp() + 60)
        if value < 0 or value > maximum or stale:
            continue
        updates[participant] = value
    return updates
