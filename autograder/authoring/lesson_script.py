"""Read a lesson written as a percent-format script into an nbgrader notebook.

Lessons are authored as text (``source/NN_x/NN_x.py``) so that reviews read like prose and code,
not notebook JSON. A cell starts with a header line:

    # %%                                    code
    # %% [markdown]                         prose (each line starts with "# ")
    # %% solution ID                        the student's answer cell (BEGIN/END SOLUTION inside)
    # %% check ID points=N                  the autograded test of solution ID: the cell
                                            `check.ID(ID)` (the self-check), with id test_ID
    # %% [markdown] answer ID points=N      a written answer, graded by hand

What the notebook derives from the script, so that an exercise added anywhere is written once:

- exercise headings are numbered in order: the script writes ``### Exercise: title``, the notebook
  shows ``### Exercise 3: title`` (a number typed in the script is refused: it would go stale);
- a plain cell's id is made from its text (``cell-`` and 8 hex digits, ``-2`` for a second cell of
  the same text), so inserting cells renames none of the others; a solution, test or answer cell's
  id is its name.
"""
import hashlib
import re

import nbformat

from course.grade_ids import test_id

HEADER = re.compile(r"^# %%(?P<markdown> \[markdown\])?(?: (?P<role>solution|check|answer) (?P<id>[\w-]+))?"
                    r"(?: points=(?P<points>\d+(?:\.\d+)?))?\s*$")

# A heading that opens an exercise: "### Exercise: title" in a script, "### Exercise 3: title" in a notebook.
EXERCISE_HEADING = re.compile(r"^(#+ Exercise)(?P<number> \d+)?:", re.MULTILINE)

KERNEL = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
          "language_info": {"name": "python"}}


def nbgrader_metadata(role: str | None, grade_id: str | None, points: str | None) -> dict | None:
    """The schema-3 metadata nbgrader's own "Create Assignment" toolbar writes for each role."""
    if role is None:
        return None
    meta = {"grade": role in ("check", "answer"), "grade_id": grade_id, "locked": role == "check",
            "schema_version": 3, "solution": role in ("solution", "answer"), "task": False}
    if meta["grade"]:
        if points is None:
            raise ValueError(f"cell {grade_id}: graded cells need points=N")
        meta["points"] = float(points) if "." in points else int(points)
    return meta


def check_call(exercise: str) -> str:
    """The whole test cell: the student's self-check. The grader runs its own trial instead."""
    return f"check.{exercise}({exercise})"


def _markdown_text(lines: list[str]) -> str:
    return "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#") for line in lines)


def numbered(source: str, first: int) -> tuple[str, int]:
    """``source`` with its exercise headings numbered from ``first``, and the next number; a number
    the script typed is refused."""
    for found in EXERCISE_HEADING.finditer(source):
        if found.group("number"):
            raise ValueError(f"{found.group(0)!r}: exercise numbers are derived, write {found.group(1) + ':'!r}")
    parts = EXERCISE_HEADING.split(source)  # text, heading, number (None), text, ...
    shown = parts[0] + "".join(f"{heading} {first + k}:{text}"
                               for k, (heading, text) in enumerate(zip(parts[1::3], parts[3::3])))
    return shown, first + len(parts[1::3])


def unnumbered(source: str) -> str:
    """The inverse of ``numbered``: the headings as a lesson script writes them."""
    return EXERCISE_HEADING.sub(lambda found: f"{found.group(1)}:", source)


def text_id(cell_type: str, source: str, taken: set) -> str:
    """A plain cell's id, made from its type and text: the same on every build, whatever moves around it."""
    base = "cell-" + hashlib.sha256(f"{cell_type}\n{source}".encode()).hexdigest()[:8]
    found, k = base, 1
    while found in taken:
        k += 1
        found = f"{base}-{k}"
    taken.add(found)
    return found


def parse(text: str) -> nbformat.NotebookNode:
    cells, current = [], None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("# %%"):
            match = HEADER.match(line)
            if not match:
                raise ValueError(f"line {number}: cannot read cell header {line!r}")
            current = {"header": match.groupdict(), "lines": []}
            cells.append(current)
        elif current is None:
            if line.strip():
                raise ValueError(f"line {number}: text before the first '# %%' header")
        else:
            current["lines"].append(line)
    notebook = nbformat.v4.new_notebook(metadata=KERNEL)
    taken, exercise = set(), 1
    for cell in cells:
        head, lines = cell["header"], cell["lines"]
        while lines and not lines[-1].strip():
            lines.pop()
        grade_id = test_id(head["id"]) if head["role"] == "check" else head["id"]
        meta = nbgrader_metadata(head["role"], grade_id, head["points"])
        if head["markdown"]:
            source = _markdown_text(lines)
            shown, exercise = numbered(source, exercise)
            new = nbformat.v4.new_markdown_cell(shown)
        else:
            if head["role"] == "answer":
                raise ValueError(f"cell {head['id']}: a written answer must be a [markdown] cell")
            if head["role"] == "check":
                if any(line.strip() for line in lines):
                    raise ValueError(f"check {head['id']}: the test cell is generated, leave its body empty")
                lines = [check_call(head["id"])]
            new = nbformat.v4.new_code_cell("\n".join(lines))
        new.id = test_id(head["id"]) if head["role"] == "check" else head["id"] or \
            text_id(new.cell_type, source if head["markdown"] else new.source, taken)
        if meta:
            new.metadata["nbgrader"] = meta
        notebook.cells.append(new)
    return notebook


def read(path) -> nbformat.NotebookNode:
    with open(path, encoding="utf-8") as handle:
        return parse(handle.read())
