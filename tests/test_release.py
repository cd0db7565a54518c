"""release/ is exactly what nbgrader makes of source/ today, and leaks nothing; source/ notebooks
match their lesson scripts; each lesson meets the course's minimums."""
import glob
import os
import re

import nbformat
import pytest

from autograder.authoring.release import generate_release
from autograder.course_dir import assignments
from autograder.authoring.lesson_script import check_call, read
from course.grade_ids import exercise_of_test
from autograder.grading.judging.references import reference
from course.exercise import exercises_of, lesson_module
from autograder.authoring.prove import scratch_course
from autograder.authoring.wrong_answers import load_corpus
from conftest import ROOT

ASSIGNMENTS = assignments(ROOT)
SOLUTION_REGION = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.DOTALL)


def notebook(kind, assignment):
    return nbformat.read(os.path.join(ROOT, kind, assignment, f"{assignment}.ipynb"), as_version=4)


def nbgrader_meta(cell):
    return cell.metadata.get("nbgrader", {})


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_is_what_nbgrader_generates_now(assignment, tmp_path):
    course = scratch_course(ROOT, str(tmp_path), assignment)
    generate_release(course, [assignment])
    fresh = os.path.join(course, "release", assignment)
    committed = os.path.join(ROOT, "release", assignment)
    assert sorted(os.listdir(fresh)) == sorted(os.listdir(committed))
    for name in os.listdir(fresh):
        assert open(os.path.join(fresh, name)).read() == open(os.path.join(committed, name)).read(), \
            f"release/{assignment}/{name} is stale: run `autograd-course release {assignment}`"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_holds_no_solution_or_hidden_test(assignment):
    text = "\n".join(c.source for c in notebook("release", assignment).cells)
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS", "autograder", "respond(", "respond_each("):
        assert marker not in text
    for region in SOLUTION_REGION.findall("\n".join(c.source for c in notebook("source", assignment).cells)):
        assert region.strip() not in text


def test_course_package_holds_no_solution():
    package = "\n".join(open(p).read() for p in glob.glob(os.path.join(ROOT, "course", "**", "*.py"), recursive=True))
    squash = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    for assignment in ASSIGNMENTS:
        for region in SOLUTION_REGION.findall("\n".join(c.source for c in notebook("source", assignment).cells)):
            if len(region.strip().splitlines()) > 1:
                assert squash(region) not in squash(package), f"a {assignment} solution is in course/"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_notebook_matches_its_lesson_script(assignment):
    script = read(os.path.join(ROOT, "source", assignment, f"{assignment}.py"))
    built = notebook("source", assignment)
    summary = lambda nb: [(c.cell_type, c.source, nbgrader_meta(c), c.metadata.get("jupyter")) for c in nb.cells]  # noqa: E731,E501
    assert summary(built) == summary(script), f"rebuild it: autograd-course build {assignment[:2]}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_lesson_meets_the_course_minimums(assignment):
    cells = notebook("source", assignment).cells
    tests = [c for c in cells if c.cell_type == "code" and nbgrader_meta(c).get("grade")]
    written = [c for c in cells if c.cell_type == "markdown" and nbgrader_meta(c).get("grade")]
    assert len(tests) >= 5 and written
    declared = exercises_of(lesson_module(assignment))
    for cell in tests:
        name = exercise_of_test(cell.id)
        assert cell.source == check_call(name), f"{cell.id}: a test cell is the one-line self-check"
        assert name in declared, f"{cell.id}: no course/exercises/{lesson_module(assignment)}/{name}.py"
        assert callable(reference(lesson_module(assignment), name)), f"{name}: no reference in the grader"
    corpus = {a.test_id for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))
              if a.assignment == assignment}
    assert {c.id for c in tests} <= corpus
