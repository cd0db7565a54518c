"""The lesson writer is the exact inverse of the lesson script reader, in both directions."""
import glob
import os

import nbformat
import pytest

from autograder.authoring.lesson_script import parse
from autograder.authoring.lesson_writer import write
from autograder.course_dir import assignments
from conftest import ROOT

SCRIPTS = sorted(p for p in glob.glob(os.path.join(ROOT, "source", "*", "*.py"))
                 if os.path.basename(p)[:-3] == os.path.basename(os.path.dirname(p)))
NOTEBOOKS = [p[:-3] + ".ipynb" for p in SCRIPTS]


def _cells(notebook) -> list[tuple]:
    """What a lesson script holds of each cell: outputs and execution counts are the kernel's."""
    return [(c.cell_type, c.id, c.source, c.metadata.get("nbgrader"), c.metadata.get("jupyter"))
            for c in notebook.cells]


def test_every_lesson_has_its_script():
    assert [os.path.basename(p)[:-3] for p in SCRIPTS] == sorted(assignments(ROOT))


@pytest.mark.parametrize("script", SCRIPTS, ids=os.path.basename)
def test_script_survives_read_then_write(script):
    text = open(script, encoding="utf-8").read()
    assert write(parse(text)) == text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_source_notebook_survives_write_then_read(path):
    notebook = nbformat.read(path, as_version=4)
    assert _cells(parse(write(notebook))) == _cells(notebook)


def _toolbar_notebook(**test_cell):
    """Cells as nbgrader's Create Assignment toolbar leaves them: random ids, metadata by role."""
    def meta(grade_id, grade, solution, locked, points=None):
        m = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
             "solution": solution, "task": False}
        return {"nbgrader": m | ({"points": points} if points is not None else {})}
    test = {"source": "check.double(double)", "grade_id": "test_double"} | test_cell
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title\n\nProse.\n", id="a1b2"),
        nbformat.v4.new_code_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION\n",
                                  id="c3d4", metadata=meta("double", False, True, False)),
        nbformat.v4.new_code_cell(test["source"], id="e5f6", metadata=meta(test["grade_id"], True, False, True, 2)),
        nbformat.v4.new_markdown_cell("Because.", id="g7h8", metadata=meta("why", True, True, False, 1.5)),
    ])


def test_a_notebook_edited_with_the_toolbar_becomes_headers():
    assert write(_toolbar_notebook()) == (
        "# %% [markdown]\n# # Title\n#\n# Prose.\n\n"
        "# %% solution double\ndef double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION\n\n"
        "# %% check double points=2\n\n"
        "# %% [markdown] answer why points=1.5\n# Because.\n")


@pytest.mark.parametrize("change, message", [
    ({"source": "check.double(double)\nassert True"}, "must hold exactly 'check.double\\(double\\)'"),
    ({"grade_id": "double_test"}, "test_ID"),
])
def test_a_test_cell_the_script_cannot_express_is_refused(change, message):
    with pytest.raises(ValueError, match=message):
        write(_toolbar_notebook(**change))


def test_a_read_only_cell_is_refused_not_dropped():
    notebook = _toolbar_notebook()
    notebook.cells[0].metadata["nbgrader"] = {"grade": False, "grade_id": "intro", "locked": True,
                                              "schema_version": 3, "solution": False, "task": False}
    with pytest.raises(ValueError, match="cell 1 .*no lesson-script header"):
        write(notebook)
