"""The class list (``--roster``): who may submit, and the ids each LMS knows them by.

Roster CSV: header names are case-insensitive and only ``student_id`` is required.

    student_id  the folder name under submitted/ (and so the gradebook id) everything resolves to
    canvas_id   Canvas user id: the number after the name in Canvas file names
    canvas_anonymous_id
                the anonymous ids of the student's submissions (the "anon_<id>" of an anonymously
                graded assignment's file names; one per assignment, separated by spaces). Without
                it such files are placed as student anon_<id> (blind), or with a roster not at all
    moodle_id   Moodle participant ids: the number after the full name (or "Participant" under blind
                marking) in Moodle folder names, listed as "Participant <id>" in the assignment's grading
                worksheet. Moodle gives each student a new one in every assignment: list them all,
                separated by spaces. Without a roster a Moodle file is placed under that number, so
                one student's lessons land under different ids
    d2l_id      D2L Brightspace user id: the second number of "subid-userid - Name - ..." file names
    username    Blackboard username (as its receipts name it), or the folder name of a per-student folder
    login_id    institutional login (Canvas "SIS Login ID"), matched like username
    email       matched whole, or by the part before the @
    name        "First Last" or "Last, First"; tried only when no id matched (Canvas, Moodle, D2L, folders)
    first_name, last_name
                given to the gradebook with the student, so formgrader shows names
    group       the student's group (a name; the same in every member's row): a notebook one member
                hands in is every member's (``collect/groups.py``)
"""
import csv
import re
import unicodedata


# roster columns whose cell may list one id per assignment (an LMS that numbers students afresh in each)
SEVERAL_IDS = ("canvas_anonymous_id", "moodle_id")
ROSTER_COLUMNS = ("student_id", "canvas_id", "canvas_anonymous_id", "moodle_id", "d2l_id", "username", "login_id",
                  "email", "name", "first_name", "last_name", "group")
LONGEST_ID = 100  # characters of a student id made into a folder name


class RosterError(ValueError):
    """The roster cannot be used: no student_id column, or an id that is no folder name."""


class Roster:
    """Who may submit, and the ids each LMS knows them by (columns: ROSTER_COLUMNS, see module doc)."""

    def __init__(self, rows: list[dict[str, str]]):
        self.rows = rows
        self.student_ids = sorted({row["student_id"] for row in rows})
        self._known = {_plain(cell) for row in rows for cell in row.values() if cell}

    @classmethod
    def load(cls, path: str) -> "Roster":
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            headers = {header: header.strip().lower() for header in reader.fieldnames or [] if header}
            if "student_id" not in headers.values():
                raise RosterError(f"{path}: the roster needs a student_id column (it has: "
                                  f"{', '.join(headers.values()) or 'none'}; known: {', '.join(ROSTER_COLUMNS)})")
            rows = [{headers[k]: (v or "").strip() for k, v in row.items() if k in headers} for row in reader]
        rows = [row for row in rows if row["student_id"]]
        unsafe = [row["student_id"] for row in rows if folder_name(row["student_id"]) != row["student_id"]]
        if unsafe:
            raise RosterError(f"{path}: student_id must be usable as a folder name: {', '.join(unsafe)}")
        return cls(rows)

    def students_matching(self, value: str, columns: tuple[str, ...]) -> list[str]:
        wanted = _plain(value.strip())
        hits = set()
        for row in self.rows:
            for column in columns:
                cell = _plain(row.get(column, ""))
                if column in SEVERAL_IDS and wanted in re.split(r"[\s,;]+", cell):
                    hits.add(row["student_id"])
                elif cell and (cell == wanted or (column == "email" and cell.split("@")[0] == wanted)
                             or (column == "name" and name_keys(cell) & name_keys(wanted))):
                    hits.add(row["student_id"])
        return sorted(hits)

    def group_of(self, student: str) -> tuple[str, list[str]]:
        """(the student's group, its members but the student), or ("", []) outside any group."""
        group = next((row.get("group", "") for row in self.rows if row["student_id"] == student), "")
        if not group:
            return "", []
        return group, sorted({row["student_id"] for row in self.rows
                              if _plain(row.get("group", "")) == _plain(group) and row["student_id"] != student})

    def mentions(self, value: str) -> bool:
        """Whether any cell of the roster is ``value`` (a folder named for a student is never a wrapper)."""
        return _plain(value) in self._known


def _plain(text: str) -> str:
    """One spelling of a name however it was typed: NFC (macOS zips write names decomposed), lower case."""
    return unicodedata.normalize("NFC", text).lower()


def name_keys(name: str) -> set[str]:
    """'John Smith', 'Smith, John' and Canvas's 'smithjohn' all give 'smithjohn' among their keys."""
    words = re.findall(r"[^\W_]+", _plain(name))
    return {"".join(words), "".join(words[-1:] + words[:-1])} - {""}


def folder_name(raw: str) -> str:
    """``raw`` made usable as a folder name, or "" when nothing (or too much) of it is left."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", raw).strip("._-")
    return safe if len(safe) <= LONGEST_ID else ""
