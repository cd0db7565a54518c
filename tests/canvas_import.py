"""A CSV read back as Canvas's gradebook import reads it, to check canvas.csv against the real rules.

The rules are those of canvas-lms ``app/models/gradebook_importer.rb`` (``process_header``,
``process_pp``, ``Assignment.title_and_id``) and Canvas's guide "How do I import grades in the
Gradebook?":
- the header's first cells are ``Student``, ``ID``, then either ``Section`` or ``SIS User ID``,
  ``SIS Login ID``, ``Section``; the columns after them are assignments, less trailing read-only
  ``Current Score``/``Final Score``/``Final Grade`` columns;
- an assignment header ``Title (123)`` is the assignment with id 123; any other header is matched
  by its exact title, else it becomes a new assignment;
- a row whose first cell matches ``Points Possible`` gives each assignment's points, not a student;
- a blank grade is no change.
"""
import csv
import re
from dataclasses import dataclass, field

TITLE_AND_ID = re.compile(r"\A(.*)\s\((\d+)\)\Z")  # Assignment.title_and_id
READ_ONLY = re.compile(r"Current Score|Current Points|Final Score|Final Points|Final Grade")


class NotImportable(ValueError):
    pass


@dataclass
class CanvasImport:
    assignments: list[tuple[str, int | None, float | None]] = field(default_factory=list)  # title, id, points
    changes: dict[str, dict] = field(default_factory=dict)  # student key -> {assignment id or title: grade}
    new_assignments: list[str] = field(default_factory=list)  # headers Canvas would create assignments for


def parse_like_canvas(path: str) -> CanvasImport:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    header = rows[0]
    if len(header) < 3 or not re.search("Student", header[0]) or not re.search("ID", header[1]):
        raise NotImportable("Couldn't find header row")
    student_columns = 3
    if not re.search("Section", header[2]):
        if (len(header) < 5 or not re.search("Section", header[4]) or not re.search(r"SIS\s+User\s+ID", header[2])
                or not re.search(r"SIS\s+Login\s+ID", header[3])):
            raise NotImportable("Couldn't find header row")
        student_columns = 5
    columns = header[student_columns:]
    while columns and READ_ONLY.search(columns[-1]):
        columns.pop()
    result = CanvasImport()
    keys = []
    for name in columns:
        match = TITLE_AND_ID.match(name)
        if match:
            result.assignments.append((match.group(1), int(match.group(2)), None))
            keys.append(int(match.group(2)))
        else:
            result.assignments.append((name, None, None))
            result.new_assignments.append(name)
            keys.append(name)
    for row in rows[1:]:
        if re.search("Points Possible", row[0]):
            result.assignments = [(title, id_, float(row[student_columns + i]) if row[student_columns + i] else None)
                                  for i, (title, id_, _) in enumerate(result.assignments)]
            continue
        student = row[1] or (row[3] if student_columns == 5 else "") or row[0]  # ID, else SIS Login ID, else name
        grades = row[student_columns:student_columns + len(keys)]
        result.changes[student] = {key: grade for key, grade in zip(keys, grades) if grade.strip()}
    return result
