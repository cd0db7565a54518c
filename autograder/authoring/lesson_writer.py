"""Write a notebook back as its lesson script: the exact inverse of ``lesson_script.parse``.

An instructor may edit ``source/NN_x/NN_x.ipynb`` in JupyterLab, with nbgrader's Create Assignment
toolbar, instead of the script. This turns the notebook back into the text form, so the script stays
what reviews read and what ``autograd-course build`` executes. Each cell's role is read from the
nbgrader metadata the toolbar writes; a cell no header can express is refused with its position,
never dropped. Outputs, execution counts and notebook metadata are not part of a lesson script, nor
are the exercise numbers the reader derives (``### Exercise 3:`` is written ``### Exercise:``).
"""
from course.grade_ids import exercise_of_test

from .lesson_script import check_call, unnumbered

# What each header carries in nbgrader's metadata: (grade, solution, locked) -> role.
ROLES = {(False, True, False): "solution", (True, False, True): "check", (True, True, False): "answer"}


def _points(value, where: str) -> str:
    """``2`` for 2, ``1.5`` for 1.5 and ``2.0`` for 2.0: what ``parse`` reads back as the same number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or "e" in repr(value):
        raise ValueError(f"{where}: points must be a plain non-negative number, not {value!r}")
    return repr(value)


def _body(source: str) -> list[str]:
    """The cell's lines without trailing blank ones (``parse`` drops them too)."""
    lines = source.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _role(cell, where: str) -> tuple[str | None, str | None]:
    """(role, exercise or answer id) from the cell's nbgrader metadata; (None, None) for plain cells."""
    meta = cell.metadata.get("nbgrader")
    if not meta or not (meta.get("grade") or meta.get("solution") or meta.get("locked") or meta.get("task")):
        return None, None
    key = (bool(meta.get("grade")), bool(meta.get("solution")), bool(meta.get("locked")))
    role = None if meta.get("task") else ROLES.get(key)
    grade_id = meta.get("grade_id", "")
    if role is None:
        raise ValueError(f"{where}: nbgrader role {key} (grade, solution, locked) has no lesson-script header; "
                         "use a solution cell, an autograded test cell or a manually graded answer")
    if role == "check":
        exercise = exercise_of_test(grade_id)
        if exercise is None:
            raise ValueError(f"{where}: a test cell's id is test_ID (ID the solution it checks), not {grade_id!r}")
        if cell.source.strip() != check_call(exercise):
            raise ValueError(f"{where}: test cell {grade_id} must hold exactly {check_call(exercise)!r}; "
                             "the grader's hidden line is generated, not edited in the notebook")
        return role, exercise
    return role, grade_id


def cell_text(cell, where: str = "cell") -> str:
    role, name = _role(cell, where)
    markdown = cell.cell_type == "markdown"
    if cell.cell_type not in ("markdown", "code"):
        raise ValueError(f"{where}: {cell.cell_type} cells have no lesson-script header")
    if (role == "answer") != markdown and role is not None:
        raise ValueError(f"{where}: a {role} cell must be a {'markdown' if role == 'answer' else 'code'} cell")
    header = "# %%" + (" [markdown]" if markdown else "")
    if role:
        header += f" {role} {name}"
        if role != "solution":
            header += f" points={_points(cell.metadata['nbgrader'].get('points'), where)}"
    if role == "check":
        return header
    lines = _body(unnumbered(cell.source) if markdown else cell.source)
    if any(line.startswith("# %%") for line in lines):
        raise ValueError(f"{where}: a line starting with '# %%' would start a new cell")
    if markdown:
        lines = ["# " + line if line else "#" for line in lines]
    return "\n".join([header] + lines)


def write(notebook) -> str:
    """The lesson script of ``notebook``: cells separated by one blank line, ending in a newline."""
    return "\n\n".join(cell_text(cell, f"cell {index + 1} ({cell.get('id', 'no id')})")
                       for index, cell in enumerate(notebook.cells)) + "\n"

