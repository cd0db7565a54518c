"""Scores written into the LMS's own gradebook download (``export --into FILE``), all else as downloaded.

The instructor downloads the LMS's gradebook file, and ``export`` writes a copy of it into the
export folder with the lessons' cells filled in: every other column, header, id and row stays as it
was, so the upload lands on the LMS's own columns without guessing its format. A cell is filled only
when the lesson is graded to the end (``status.GRADED``); otherwise it keeps what the LMS had, which
each of these LMSs reads as "no change" when it is blank.

Formats, told apart by their headers:

- Canvas, Grades > Export: ``Student, ID, SIS User ID, SIS Login ID, Section``, a "Points Possible"
  row, then a column per assignment, "Title (id)". Rows matched by ID (the roster's canvas_id), else
  SIS Login ID, else SIS User ID.
- Moodle, an assignment's "Download grading worksheet": ``Identifier`` ("Participant <id>") and
  ``Grade``, scaled to its ``Maximum Grade`` column; rows matched by the participant ids collect kept
  (``lms_ids.csv``). The lesson is the one those ids were collected for.
- Blackboard Learn, Grade Center "Work Offline > Download": ``Last Name, First Name, Username, Student
  ID, ...``, a column per item "Title [Total Pts: 12 Score] |1234567"; rows matched by Username (the
  roster's username, login_id or student_id); scores in points, scaled to the item's Total Pts.
- D2L Brightspace, Grades > Export: ``OrgDefinedId, Username, Last Name, First Name, ...``, a column
  per item "Title Points Grade" (optionally ``<Numeric MaxPoints:12>``), then ``End-of-Line
  Indicator``; Username is written with a leading "#", matched without it.

A lesson's column is found by its title: ``c.LMSFiles.columns`` (lesson -> the title the LMS gives
the assignment), else the title of ``c.CanvasExport.assignments``, else the lesson's own name.

Not confirmed from the LMSs' documentation here: Blackboard's and D2L's exact header spellings beyond
what is written above (so a file that does not look like one of these is refused, never guessed at),
and whether Blackboard's tab-separated UTF-16 ``.xls`` download imports back when written as UTF-8:
``--into`` writes the file in the encoding and delimiter it was read in.
"""
import csv
import io
import os
import re
from dataclasses import dataclass, field

from ..records.roster import Roster
from ..records.status import GRADED, Status


@dataclass
class Filled:
    path: str
    lms: str
    filled: int = 0
    held_back: list[tuple[str, str, Status]] = field(default_factory=list)  # (student, lesson, status)
    unmatched_rows: list[str] = field(default_factory=list)
    no_column: list[str] = field(default_factory=list)                   # lessons with no column in the file

    def lines(self) -> list[str]:
        out = [f"wrote {self.path}: the {self.lms} file as downloaded, {self.filled} score(s) filled in"]
        out += [f"  {lesson}: no column for it in the file (set c.LMSFiles.columns[{lesson!r}] to its title)"
                for lesson in self.no_column]
        out += [f"  row {row}: not a student of the roster (nor one collect saw), left as it is"
                for row in self.unmatched_rows]
        return out


def _read(path: str) -> tuple[list[list[str]], str, str, bool]:
    """Rows, encoding, delimiter and whether every field was quoted."""
    with open(path, "rb") as handle:
        raw = handle.read()
    encoding = "utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig" if raw[:3] == b"\xef\xbb\xbf" else "utf-8"
    text = raw.decode(encoding)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if first.count("\t") > first.count(",") else ","
    quoted = all(cell.startswith('"') for cell in first.rstrip("\r").split(delimiter) if cell)
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)), encoding, delimiter, quoted


def _kind(header: list[str]) -> str:
    names = [h.strip() for h in header]
    if names[:2] == ["Student", "ID"]:
        return "Canvas"
    if "Identifier" in names and "Grade" in names:
        return "Moodle"
    if "Username" in names and "Last Name" in names and any("[Total Pts:" in h for h in names):
        return "Blackboard"
    if "Username" in names and "End-of-Line Indicator" in names:
        return "D2L"
    raise ValueError("not a gradebook file from Canvas, Moodle, Blackboard or D2L that this version knows "
                     f"(its columns: {', '.join(names[:8])}...); nothing written")


def _title(kind: str, header: str) -> tuple[str, float | None]:
    """An item column's title and the points it is out of, as the file says."""
    header = header.strip()
    if kind == "Canvas":
        return re.sub(r"\s*\(\d+\)$", "", header), None
    if kind == "Blackboard":
        found = re.match(r"(.+?) \[Total Pts: ([\d.]+)[^\]]*\]", header)
        return (found.group(1), float(found.group(2))) if found else (header, None)
    found = re.match(r"(.+?) Points Grade(?: <Numeric MaxPoints:([\d.]+)[^>]*>)?$", header)
    return (found.group(1), float(found.group(2)) if found.group(2) else None) if found else (header, None)


def _columns(kind: str, header: list[str], lessons: list[str], titles: dict[str, str]) -> dict[str, tuple[int, float | None]]:
    """lesson -> (its column, the points the column is out of)."""
    found = {}
    for index, name in enumerate(header):
        title, out_of = _title(kind, name)
        for lesson in lessons:
            if title.strip().lower() in {titles.get(lesson, lesson).lower(), lesson.lower()}:
                found.setdefault(lesson, (index, out_of))
    return found


def _student_of(kind: str, row: dict[str, str], people: Roster | None, ids: dict[str, str]) -> str | None:
    """The course's student_id for one row of the file, or None."""
    def matching(value: str, columns: tuple[str, ...]) -> list[str]:
        value = value.strip().lstrip("#")
        if not value:
            return []
        if people is None:
            return [value] if "student_id" in columns or "username" in columns else []
        return people.students_matching(value, columns)
    tries = {"Canvas": [("ID", ("canvas_id",)), ("SIS Login ID", ("login_id", "student_id")),
                        ("SIS User ID", ("student_id",))],
             "Blackboard": [("Username", ("username", "login_id", "student_id"))],
             "D2L": [("Username", ("username", "login_id", "student_id")), ("OrgDefinedId", ("login_id", "student_id"))]}
    if kind == "Moodle":
        participant = row.get("Identifier", "").replace("Participant", "").strip()
        if participant in ids:
            return ids[participant]
        # a participant collect never saw (nothing handed in): the roster knows them by id, email or name
        row = {**row, "Participant": participant}
        tries["Moodle"] = [("Participant", ("moodle_id",)), ("Email address", ("email",)), ("Full name", ("name",))]
    for column, roster_columns in tries[kind]:
        hits = matching(row.get(column, ""), roster_columns)
        if len(hits) == 1:
            return hits[0]
    return None


def fill_lms_file(path: str, out: str, snapshot, statuses, roster_path: str | None, root: str) -> Filled:
    """Write ``out/<the file's name>`` with the scores filled in; see the module doc."""
    from ..records import lms_ids
    from ..lms_settings import LMSFiles, canvas_assignments, course_config
    from .score_text import points
    rows, encoding, delimiter, quoted = _read(path)
    if not rows:
        raise ValueError("an empty file")
    header, kind = rows[0], _kind(rows[0])
    people = Roster.load(roster_path) if roster_path else None
    titles = {lesson: entry[0] for lesson, entry in canvas_assignments(root).items()}
    titles.update(LMSFiles(config=course_config(root)).columns)
    lessons = list(snapshot.lessons)
    ids: dict[str, str] = {}
    if kind == "Moodle":
        by_lesson = lms_ids.ids_of(root, "moodle")
        seen = {r[header.index("Identifier")].replace("Participant", "").strip() for r in rows[1:] if r}
        lesson = max(lessons, key=lambda l: len(seen & set(by_lesson.get(l, {}).values())), default=None)
        if lesson is None or not seen & set(by_lesson.get(lesson, {}).values()):
            raise ValueError("none of its participants were collected from Moodle for a lesson exported here")
        ids = {participant: student for student, participant in by_lesson[lesson].items()}
        columns = {lesson: (header.index("Grade"), None)}
    else:
        columns = _columns(kind, header, lessons, titles)
    done = Filled(os.path.join(out, os.path.basename(path)), kind, no_column=[l for l in lessons if l not in columns])
    for number, row in enumerate(rows[1:], start=2):
        cells = dict(zip(header, row))
        if not any(cell.strip() for cell in row) or row[0].strip() == "Points Possible":
            continue
        student = _student_of(kind, cells, people, ids)
        if student is None:
            done.unmatched_rows.append(f"{number} ({', '.join(c for c in row[:3] if c)})")
            continue
        for lesson, (index, out_of) in columns.items():
            status, sub = statuses.get((student, lesson)), snapshot.submissions.get((student, lesson))
            possible = snapshot.max_score(lesson)
            if status is None or status.state != GRADED or sub is None or not possible:
                if status is not None and status.state != "missing":
                    done.held_back.append((student, lesson, status))
                continue
            if kind == "Moodle":
                maximum = cells.get("Maximum Grade") or cells.get("Maximum grade") or ""
                out_of = float(maximum) if maximum.strip() else None
            while len(row) <= index:
                row.append("")
            row[index] = points(snapshot.final_score(sub) * (out_of or possible) / possible)
            done.filled += 1
    os.makedirs(out, exist_ok=True)
    with open(done.path, "w", newline="", encoding=encoding) as handle:
        csv.writer(handle, delimiter=delimiter, quoting=csv.QUOTE_ALL if quoted else csv.QUOTE_MINIMAL,
                   lineterminator="\r\n" if b"\r\n" in open(path, "rb").read(4096) else "\n").writerows(rows)
    return done
