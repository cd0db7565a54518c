"""Correct answers written in other styles than the lesson's solution score full marks: the checks
judge values, and enforce a technique only where an exercise's text states it.

Each file in tests/correct_answers/NN_x/ defines one exercise's function and says, in a
`# style:` line, how it differs from the solution. Every graded exercise has at least one.
Each passes under both orders of a trial's calls, forced on the same seeds.
"""
import glob
import os
import re

import pytest

from autograder.course_dir import assignments
from conftest import ROOT
from lesson_solutions import define, source_notebook
from test_wrong_submissions import ORDER_IDS, graded_exercises
from trial import CALL_ORDERS, calls_in_order, exercise, graded

CORRECT_DIR = os.path.join(ROOT, "tests", "correct_answers")
DEFINES = re.compile(r"^def (\w+)\(", re.MULTILINE)


def load_correct_answers() -> list[tuple[str, str, str, str]]:
    """(assignment, file name, exercise, code): the exercise is the last function a file defines."""
    found = []
    for path in sorted(glob.glob(os.path.join(CORRECT_DIR, "*", "*.py"))):
        code = open(path, encoding="utf-8").read()
        assert re.search(r"^# style: .+$", code, re.MULTILINE), f"{path}: no '# style: ...' line"
        names = DEFINES.findall(code)
        found.append((os.path.basename(os.path.dirname(path)), os.path.basename(path)[:-3], names[-1], code))
    return found


CORRECT = load_correct_answers()


@pytest.mark.parametrize("order", CALL_ORDERS, ids=ORDER_IDS)
@pytest.mark.parametrize("assignment, name, replaces, code", CORRECT, ids=[f"{a}/{n}" for a, n, _, _ in CORRECT])
def test_a_correct_answer_in_another_style_passes(assignment, name, replaces, code, order, capsys):
    answer = define(code, replaces)
    with calls_in_order(order):
        result = graded(assignment, replaces, answer)
        assert result.passed, f"{name}: {result.message}"
        exercise(assignment, replaces)(answer)
    assert "Correct" in capsys.readouterr().out


@pytest.mark.parametrize("assignment", assignments(ROOT))
def test_every_graded_exercise_has_a_correct_answer_in_another_style(assignment):
    covered = {replaces for a, _, replaces, _ in CORRECT if a == assignment}
    missing = set(graded_exercises(source_notebook(assignment))) - covered
    assert not missing, f"no answer in tests/correct_answers/{assignment} for {sorted(missing)}"
