"""Every corpus entry fails the check it targets, in-process and fast, with the message it names,
in the grader (fresh seeds, references on the grader's side) and in the self-check (stored values);
every source solution passes both; every graded test has at least one wrong answer aimed at it.
Each of these holds under both orders of a trial's calls (other inputs first, or between the two
judged calls), forced on the same seeds, not only under the order each seed happens to pick."""
import os

import pytest

from autograder.course_dir import assignments
from course.grade_ids import exercise_of_test
from autograder.authoring.wrong_answers import load_corpus, solution_cells
from course.outcome import CheckFailed
from conftest import ROOT
from lesson_solutions import define, source_notebook
from trial import CALL_ORDERS, calls_in_order, exercise, graded

ORDER_IDS = ["-".join(order) for order in CALL_ORDERS]

CORPUS = load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))
ASSIGNMENTS = assignments(ROOT)


def graded_exercises(notebook):
    return [exercise_of_test(c.id) for c in notebook.cells
            if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"]


@pytest.mark.parametrize("order", CALL_ORDERS, ids=ORDER_IDS)
@pytest.mark.parametrize("answer", CORPUS, ids=[f"{a.assignment}/{a.name}" for a in CORPUS])
def test_wrong_answer_fails_its_check(answer, order):
    """The grader and the student's self-check both catch it, with the same message, in either order."""
    with calls_in_order(order):
        _fails_with_its_message(answer)


def _fails_with_its_message(answer):
    result = graded(answer.assignment, answer.replaces, define(answer.code, answer.replaces))
    assert not result.passed
    assert answer.said_in(result.message), result.message
    with pytest.raises(CheckFailed) as self_check:
        exercise(answer.assignment, answer.replaces)(define(answer.code, answer.replaces))
    assert answer.said_in(str(self_check.value)), str(self_check.value)


@pytest.mark.parametrize("order", CALL_ORDERS, ids=ORDER_IDS)
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_solutions_pass_the_self_check_and_the_grader(assignment, order, capsys):
    for name, code in solution_cells(source_notebook(assignment)).items():
        answer = define(code, name)
        with calls_in_order(order):
            exercise(assignment, name)(answer)
            assert "Correct" in capsys.readouterr().out
            result = graded(assignment, name, answer)
        assert result.passed, f"{name}: {result}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_graded_test_has_a_wrong_answer(assignment):
    targeted = {a.replaces for a in CORPUS if a.assignment == assignment}
    missing = set(graded_exercises(source_notebook(assignment))) - targeted
    assert not missing, f"no wrong answer in tests/wrong_submissions/{assignment} targets {sorted(missing)}"
