"""A wrong pick in a quick check says why that option is wrong, and every quick check of every
lesson gives each wrong option its own reason."""
import ast
import os

import pytest

from conftest import ROOT
from course.visuals.quick_check import NO_REASON, quick_check

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


def _quick_checks(script: str):
    tree = ast.parse(open(os.path.join(ROOT, "source", script), encoding="utf-8").read())
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "quick_check"]


@pytest.mark.parametrize("script", ["01_graph/01_graph.py", "02_backward/02_backward.py",
                                    "03_no_grad/03_no_grad.py", "04_zero_grad/04_zero_grad.py"])
def test_every_wrong_option_of_every_lesson_says_why(script):
    calls = _quick_checks(script)
    assert calls
    for call in calls:
        options, answer = ast.literal_eval(call.args[1]), ast.literal_eval(call.args[2])
        for index, option in enumerate(options):
            if index != answer:
                assert isinstance(option, tuple) and len(option[1]) > 20, (script, option)
