"""Every corpus entry fails the check it targets, in-process and fast, with the message it names;
every source solution passes; every graded test has at least one wrong answer aimed at it."""
import os

import pytest

from autograder import grade
from autograder.grade import GradingFailure, load_exercise
from autograder.course_dir import assignments
from autograder.wrong_answers import grade_path, load_corpus, solution_cells
from course.outcome import CheckFailed
from conftest import ROOT
from lesson_solutions import define, source_notebook

CORPUS = load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))
ASSIGNMENTS = assignments(ROOT)


def graded_tests(notebook):
    return [c.id for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"]


@pytest.mark.parametrize("answer", CORPUS, ids=[f"{a.assignment}/{a.name}" for a in CORPUS])
def test_wrong_answer_fails_its_check(answer):
    """The grader and the student's self-check both catch it, with the same message."""
    path = grade_path(source_notebook(answer.assignment), answer.test_id)
    with pytest.raises(GradingFailure) as failure:
        grade(path, define(answer.code, answer.replaces))
    assert answer.expect in str(failure.value)
    assert "seed" in str(failure.value)
    with pytest.raises(CheckFailed) as self_check:
        load_exercise(path)(define(answer.code, answer.replaces))
    assert answer.expect in str(self_check.value)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_solutions_pass_the_self_check_and_the_grader(assignment, capsys):
    notebook = source_notebook(assignment)
    for cell_id, code in solution_cells(notebook).items():
        answer = define(code, cell_id)
        path = grade_path(notebook, f"test_{cell_id}")
        load_exercise(path)(answer)
        assert "Correct" in capsys.readouterr().out
        grade(path, answer)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_graded_test_has_a_wrong_answer(assignment):
    targeted = {a.test_id for a in CORPUS if a.assignment == assignment}
    missing = set(graded_tests(source_notebook(assignment))) - targeted
    assert not missing, f"no wrong answer in tests/wrong_submissions/{assignment} targets {sorted(missing)}"
