"""A notebook whose cells were deleted, reordered, duplicated or added is graded exercise by exercise.

Six students of lesson 1 hand in its solution, changed as students change notebooks: an answer
deleted with its check (the first exercise, and one in the middle), an answer alone, a check alone,
every cell in reverse order, a check pasted twice and a cell of their own added. Each is graded by
``autograd-course grade`` in a scratch course, once for the module: a deleted answer scores 0 and the
cell put back says why, every other exercise scores as the solution does.
"""
import copy
import os
import shutil
import subprocess

import nbformat
import pytest
from nbgrader.api import Gradebook

from conftest import ROOT
from autograder.authoring.wrong_answers import build_submission, solution_cells

LESSON = "01_graph"


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _solution():
    source = nbformat.read(os.path.join(ROOT, "source", LESSON, f"{LESSON}.ipynb"), as_version=4)
    release = nbformat.read(os.path.join(ROOT, "release", LESSON, f"{LESSON}.ipynb"), as_version=4)
    return build_submission(release, solution_cells(source))


def _without(*names):
    def change(notebook):
        notebook.cells = [c for c in notebook.cells if _grade_id(c) not in names]
    return change


def _reversed(notebook):
    notebook.cells = notebook.cells[::-1]


def _pasted_and_added(notebook):
    check = next(c for c in notebook.cells if _grade_id(c) == "test_make_leaf")
    notebook.cells.insert(2, copy.deepcopy(check))
    notebook.cells.append(nbformat.v4.new_code_cell("print('my own cell')"))


CHANGES = {  # student -> (how the notebook was changed, the exercises it loses: their check cells)
    "first_pair_deleted": (_without("leaf_from_list", "test_leaf_from_list"), {"test_leaf_from_list"}),
    "middle_pair_deleted": (_without("count_nodes", "test_count_nodes"), {"test_count_nodes"}),
    "answer_deleted": (_without("grad_fn_names"), {"test_grad_fn_names"}),
    "check_deleted": (_without("test_build_f"), set()),
    "reversed": (_reversed, set()),
    "pasted_and_added": (_pasted_and_added, set()),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    course = str(tmp_path_factory.mktemp("cells") / "course")
    os.makedirs(course)
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
    for folder in ("source", "release"):
        shutil.copytree(os.path.join(ROOT, folder, LESSON), os.path.join(course, folder, LESSON))
    for student, (change, _) in CHANGES.items():
        notebook = _solution()
        change(notebook)
        os.makedirs(os.path.join(course, "submitted", student, LESSON))
        nbformat.write(notebook, os.path.join(course, "submitted", student, LESSON, f"{LESSON}.ipynb"))
    command = os.path.join(ROOT, ".venv", "bin", "autograd-course")
    for step in (["release", LESSON], ["grade"]):
        done = subprocess.run([command, *step], cwd=course, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stdout + done.stderr
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        points = {(s.student.id, g.name): g.score
                  for s in gradebook.find_assignment(LESSON).submissions for n in s.notebooks for g in n.grades}
        full = {c.name: c.max_score for c in gradebook.find_notebook(LESSON, LESSON).grade_cells}
    return course, done.stdout, points, full


def test_every_changed_notebook_is_graded(graded):
    _, out, _, _ = graded
    assert f"graded {len(CHANGES)}, failed 0" in out


@pytest.mark.parametrize("student", sorted(CHANGES))
def test_only_a_deleted_answer_loses_its_points(graded, student):
    _, _, points, full = graded
    lost = CHANGES[student][1]
    for name, most in full.items():
        if name == "dynamic_graph":  # the written answer, graded by hand
            continue
        assert points[(student, name)] == (0 if name in lost else most), name


def test_a_cell_put_back_says_why(graded):
    course, _, _, _ = graded
    notebook = nbformat.read(os.path.join(course, "autograded", "first_pair_deleted", LESSON, f"{LESSON}.ipynb"),
                             as_version=4)
    answer = next(c for c in notebook.cells if _grade_id(c) == "leaf_from_list")
    check = next(c for c in notebook.cells if _grade_id(c) == "test_leaf_from_list")
    assert "missing from the notebook you handed in" in answer.source and "scores 0" in answer.source
    assert "raise NotImplementedError" in answer.source  # as the lesson gave it
    assert notebook.cells.index(answer) + 1 == notebook.cells.index(check)
    assert "still raises NotImplementedError" in str(check.outputs)
