"""Students' names from the roster into nbgrader's gradebook, so formgrader shows them.

nbgrader's gradebook keeps a first and last name per student; ``autograde`` creates a student
with neither, and formgrader then shows "None". The roster's ``first_name`` and ``last_name``
columns are used when given, else its ``name`` ("First Last" or "Last, First").
"""
import os


def split_name(row: dict[str, str]) -> tuple[str, str]:
    """(first, last) of a roster row."""
    if row.get("first_name") or row.get("last_name"):
        return row.get("first_name", ""), row.get("last_name", "")
    name = row.get("name", "").strip()
    if "," in name:
        last, first = (part.strip() for part in name.split(",", 1))
        return first, last
    first, _, last = name.rpartition(" ")
    return (first, last) if first else (last, "")


def give_names(root: str, rows: list[dict[str, str]], students: set[str]) -> None:
    """Create or update each of ``students`` in the gradebook with the roster's name (nothing without a course)."""
    named = {row["student_id"]: split_name(row) for row in rows if row["student_id"] in students}
    named = {student: names for student, names in named.items() if any(names)}
    if not named or not os.path.exists(os.path.join(root, "nbgrader_config.py")):
        return
    from ...course_dir import open_api
    with open_api(root).gradebook as gradebook:
        for student, (first, last) in sorted(named.items()):
            gradebook.update_or_create_student(student, first_name=first or None, last_name=last or None)
