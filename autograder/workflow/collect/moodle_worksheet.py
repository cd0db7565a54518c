"""Submission times from a Moodle assignment's grading worksheet, for nbgrader's late penalty
(and the worksheet's names, which export's worksheets use too).

Moodle's file names carry no time; the assignment's grading worksheet does (grading action
"Download grading worksheet"): a row per participant with "Identifier" ("Participant 2046") and
"Last modified (submission)", written by ``userdate()`` in the downloading user's language, date
format and time zone ("Monday, 2 March 2026, 11:59 PM" in English, to the minute; "-" when nothing
was submitted). Participant ids are unique across a Moodle site, so a worksheet's times apply to
that participant's file wherever it appears in a download. Its "Status" says a participant's extension,
which becomes their own due date (``records/extensions.py``).
"""
import csv
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

IDENTIFIER, SUBMITTED, STATUS = "Identifier", "Last modified (submission)", "Status"  # the English column names
# Moodle's grading table (mod/assign/gradingtable.php, col_status) ends a participant's Status with the
# string userextensiondate, "Extension granted until: {date}" in English, written by userdate() as the
# submission times are; a download strips the tags, so it follows the status text in the same cell.
EXTENSION = re.compile(r"Extension granted until:?\s*(.+?)\s*$")
PARTICIPANT = "Participant "
NOTHING_SUBMITTED = "-"


class WorksheetError(ValueError):
    pass


@dataclass
class SubmissionTimes:
    times: dict[str, datetime] = field(default_factory=dict)      # participant id -> when, in UTC
    unread: list[tuple[str, str]] = field(default_factory=list)   # (where, why) for times that could not be read
    extensions: dict[str, datetime] = field(default_factory=dict)  # participant id -> their own due date, in UTC


def read(paths: list[str], date_format: str, zone: str) -> SubmissionTimes:
    found = SubmissionTimes()
    for path in paths:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.reader(handle))
        header = [name.strip() for name in rows[0]] if rows else []
        if IDENTIFIER not in header or SUBMITTED not in header:
            raise WorksheetError(f"{path} is not a Moodle grading worksheet in English: it needs the columns "
                                 f"{IDENTIFIER!r} and {SUBMITTED!r} (download it with your Moodle language set "
                                 "to English)")
        ident, submitted = header.index(IDENTIFIER), header.index(SUBMITTED)
        status = header.index(STATUS) if STATUS in header else None
        for row in rows[1:]:
            if len(row) <= max(ident, submitted) or not row[ident].startswith(PARTICIPANT):
                continue
            participant, shown = row[ident][len(PARTICIPANT):].strip(), row[submitted].strip()
            extension = EXTENSION.search(row[status]) if status is not None and status < len(row) else None
            if extension:
                when = _read_time(extension.group(1), date_format, zone)
                if when is None:
                    found.unread.append((f"{path}: {row[ident]}", f"its extension {extension.group(1)!r} does not read "
                                                                  f"as c.Collect.moodle_date_format {date_format!r}"))
                else:
                    found.extensions[participant] = when
            if shown in ("", NOTHING_SUBMITTED):
                continue
            when = _read_time(shown, date_format, zone)
            if when is None:
                found.unread.append((f"{path}: {row[ident]}", f"{shown!r} does not read as c.Collect.moodle_date_format "
                                                              f"{date_format!r}: no submission time, so no late penalty"))
                continue
            found.times[participant] = when
    return found


def _read_time(shown: str, date_format: str, zone: str) -> datetime | None:
    try:
        return datetime.strptime(shown, date_format).replace(tzinfo=ZoneInfo(zone)).astimezone(timezone.utc)
    except ValueError:
        return None
