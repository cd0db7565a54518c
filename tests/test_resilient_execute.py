"""A submission that kills its kernel is still graded by a real `nbgrader autograde`.

The cell that killed the kernel scores 0 with a message saying so, the cells after it run in a fresh
kernel that has the definitions from above, and a kernel that dies too often costs only the tests
left, never the grades already earned.
"""
import os
import shutil

import nbformat
import pytest
from nbgrader.converters.autograde import Autograde
from nbgrader.preprocessors import Execute
from traitlets.utils.importstring import import_item

from autograder.course_dir import load_config, open_api
from autograder.gradebook_scores import cell_scores
from autograder.grading.judging.resilient_execute import ResilientExecute
from autograder.grading.judging.trusted_execute import TrustedExecute
from conftest import ROOT

ASSIGNMENT, NOTEBOOK = "ps1", "crash"
SQUARE = "def square(x):\n    return x * x"
DEFINES_CRASH = "import os\ndef crash():\n    os._exit(1)"


def solution_cell(grade_id, source):
    return nbformat.v4.new_code_cell(source, metadata={"nbgrader": {
        "grade": False, "solution": True, "locked": False, "grade_id": grade_id, "schema_version": 3}})


def grade_cell(grade_id, source, points):
    return nbformat.v4.new_code_cell(source, metadata={"nbgrader": {
        "grade": True, "solution": False, "locked": True, "grade_id": grade_id, "points": points,
        "schema_version": 3}})


def notebook(square_source):
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [solution_cell("define_square", square_source),
                grade_cell("test_square", "assert square(3) == 9\nprint('square ok')", 1),
                solution_cell("define_crash", DEFINES_CRASH),
                grade_cell("test_crash", "crash()", 2),
                grade_cell("test_square_again", "assert square(4) == 16", 3)]
    return nb


SUBMISSIONS = {
    # dies once, in test_crash: test_square_again needs `square` from before the restart
    "crashes_once": SQUARE,
    # square itself kills the kernel: dies in test_square, then again in test_crash (over the limit)
    "crashes_twice": "import os\ndef square(x):\n    os._exit(1)",
    # the first run is fine, but re-running this cell after test_crash's death kills the kernel again
    # (a replay runs silently; nothing a kernel writes outlives it: a restarted one gets a fresh box)
    "dies_on_replay": "import os\nif get_ipython().kernel.get_parent()['content'].get('silent'):\n    os._exit(1)\n"
                      + SQUARE,
}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("course"))
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), root)
    with open(os.path.join(root, "nbgrader_config.py"), "a") as config:
        config.write("\nc.ResilientExecute.max_kernel_deaths = 1\nc.Execute.timeout = 20\n")
    os.makedirs(os.path.join(root, "source", ASSIGNMENT))
    nbformat.write(notebook("### BEGIN SOLUTION\n" + SQUARE + "\n### END SOLUTION"),
                   os.path.join(root, "source", ASSIGNMENT, f"{NOTEBOOK}.ipynb"))
    api = open_api(root)
    assert api.generate_assignment(ASSIGNMENT, force=True)["success"]
    results = {}
    for student, square_source in SUBMISSIONS.items():
        folder = os.path.join(root, "submitted", student, ASSIGNMENT)
        os.makedirs(folder)
        nbformat.write(notebook(square_source), os.path.join(folder, f"{NOTEBOOK}.ipynb"))
        results[student] = api.autograde(ASSIGNMENT, student, force=True, create=True)
    return root, results


def graded(course, student):
    root, results = course
    assert results[student]["success"], results[student].get("error") or results[student].get("log")
    path = os.path.join(root, "autograded", student, ASSIGNMENT, f"{NOTEBOOK}.ipynb")
    cells = {c.metadata.nbgrader["grade_id"]: c for c in nbformat.read(path, as_version=4).cells}
    return cell_scores(root, ASSIGNMENT, student), cells


def errors(cell):
    return [(o.ename, o.evalue) for o in cell.outputs if o.output_type == "error"]


def test_only_the_cell_that_killed_the_kernel_loses_its_points(course):
    scores, cells = graded(course, "crashes_once")
    assert scores == {"test_square": 1, "test_crash": 0, "test_square_again": 3}
    [(ename, evalue)] = errors(cells["test_crash"])
    assert ename == "KernelDied"
    assert "the kernel died while running this cell" in evalue and "run in a fresh kernel" in evalue
    # the silent replay kept the original outputs and added none
    assert [o.get("text") for o in cells["test_square"].outputs] == ["square ok\n"]


def test_too_many_deaths_mark_the_cells_left_as_not_run(course):
    scores, cells = graded(course, "crashes_twice")
    assert scores == {"test_square": 0, "test_crash": 0, "test_square_again": 0}
    assert "run in a fresh kernel" in errors(cells["test_square"])[0][1]
    assert "died 2 times" in errors(cells["test_crash"])[0][1]
    assert errors(cells["test_square_again"]) == [
        ("NotRun", "this cell was not run: the kernel died too often above it")]


def test_a_death_while_replaying_gives_up_but_keeps_earlier_grades(course):
    scores, cells = graded(course, "dies_on_replay")
    assert scores == {"test_square": 1, "test_crash": 0, "test_square_again": 0}
    assert "died again while re-running" in errors(cells["test_crash"])[0][1]
    assert errors(cells["test_square_again"])[0][0] == "NotRun"


def test_config_only_swaps_execute_in_the_autograde_pipeline():
    configured = [import_item(name) for name in load_config(ROOT).Autograde.autograde_preprocessors]
    default = Autograde().autograde_preprocessors  # the default pipeline, without our config
    assert configured == [TrustedExecute if pp is Execute else pp for pp in default]
    assert issubclass(TrustedExecute, ResilientExecute)
