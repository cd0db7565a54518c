"""Submission times from a Moodle assignment's grading worksheet, for nbgrader's late penalty
(and the worksheet's names, which export's worksheets use too).

Moodle's file names carry no time; the assignment's grading worksheet does (grading action
"Download grading worksheet"): a row per participant with "Identifier" ("Participant 2046") and
"Last modified (submission)", written by ``userdate()`` in the downloading user's language, date
format and time zone ("Monday, 2 March 2026, 11:59 PM" in English, to the minute; "-" when nothing
was submitted). Participant ids are unique across a Moodle site, so a worksheet's times apply to
that participant's file wherever it appears in a download.
"""
import csv
from dataclasses import dataclass, field
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

IDENTIFIER, SUBMITTED = "Identifier", "Last modified (submission)"  # the English column names
PARTICIPANT = "Participant "
NOTHING_SUBMITTED = "-"


class WorksheetError(ValueError):
    pass


@dataclass
class SubmissionTimes:
    times: dict[str, datetime] = field(default_factory=dict)      # participant id -> when, in UTC
    unread: list[tuple[str, str]] = field(default_factory=list)   # (where, why) for times that could not be read


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
        for row in rows[1:]:
            if len(row) <= max(ident, submitted) or not row[ident].startswith(PARTICIPANT):
                continue
            participant, shown = row[ident][len(PARTICIPANT):].strip(), row[submitted].strip()
            if shown in ("", NOTHING_SUBMITTED):
                continue
            try:
                local = datetime.strptime(shown, date_format).replace(tzinfo=ZoneInfo(zone))
            except ValueError:
                found.unread.append((f"{path}: {row[ident]}", f"{shown!r} does not read as c.Collect.moodle_date_format "
                                                              f"{date_format!r}: no submission time, so no late penalty"))
                continue
            found.times[participant] = local.astimezone(timezone.utc)
    return found
