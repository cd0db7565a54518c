"""A wrong pick in a quick check says why that option is wrong, and every quick check of every
lesson gives each wrong option its own reason."""
import ast
import importlib
import os

import pytest

from conftest import ROOT
from course.visuals.quick_check import NO_REASON, QuickCheck, asker, quick_check

OPTIONS = [("None", "backward() did run, so x.grad is set."), "tensor(3.)", ("tensor(1.)", "x.grad is dy/dx, and y = 3 * x changes three times as fast as x.")]


def test_a_wrong_pick_shows_its_own_reason_and_never_the_answer():
    check = quick_check("y = 3 * x; y.backward(). What is x.grad?", OPTIONS, 1, "dy/dx = 3.")
    check.choices.value = 0
    assert "Not A." in check.feedback.value and "backward() did run" in check.feedback.value
    assert "dy/dx = 3." not in check.feedback.value
    check.choices.value = 2
    assert "Not C." in check.feedback.value and "three times as fast" in check.feedback.value
    check.choices.value = 1
    assert "Right." in check.feedback.value
    assert check.options == ["None", "tensor(3.)", "tensor(1.)"] and check.reason(1) == "dy/dx = 3."


def test_an_option_without_a_reason_still_gets_a_nudge():
    check = quick_check("Q?", ["a", "b"], 0, "E")
    check.choices.value = 1
    assert NO_REASON in check.feedback.value


LESSONS = {"01_graph": "graph", "02_backward": "backward", "03_no_grad": "no_grad", "04_zero_grad": "zero_grad"}


def _script(lesson: str) -> str:
    return open(os.path.join(ROOT, "source", lesson, f"{lesson}.py"), encoding="utf-8").read()


def _questions(lesson: str) -> dict:
    return importlib.import_module(f"course.questions.{LESSONS[lesson]}").QUESTIONS


def _asked(script: str) -> list:
    tree = ast.parse(script)
    return [node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ask"]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_wrong_option_of_every_lesson_says_why(lesson):
    questions = _questions(lesson)
    assert questions
    for name, question in questions.items():
        QuickCheck(**question)  # a well-formed question
        for index, option in enumerate(question["options"]):
            if index != question["answer_index"]:
                assert isinstance(option, tuple) and len(option[1]) > 20, (lesson, name, option)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lessons_cells_ask_its_questions_by_name_and_hold_no_answer(lesson):
    script, questions = _script(lesson), _questions(lesson)
    asked = _asked(script)
    assert "quick_check(" not in script and "answer_index" not in script
    assert sorted(asked) == sorted(questions), "every question asked once, and only questions the lesson has"


def test_ask_names_the_questions_it_has():
    ask = asker({"grad_of_3x": {"question": "Q?", "options": ["a", ("b", "b is wrong because ...")],
                                "answer_index": 0, "explanation": "E"}})
    assert ask("grad_of_3x").options == ["a", "b"]
    with pytest.raises(KeyError, match="grad_of_3x"):
        ask("missing")
