"""The self-check's three outcomes, its hints, and what the grader adds: fresh seeds, integrity."""
import pytest
import torch

from autograder import grade
from autograder.grade import GradingFailure
from autograder.integrity import tampered
from course.exercise import Exercise
from course.hints import Hints
from course.checks.mistakes import Mistake
from course.outcome import CheckFailed, NotAttempted

seen_seeds = []


def _doubles(answer, rng):
    x = torch.rand(3, generator=rng)
    seen_seeds.append(float(x[0]))
    if not torch.equal(answer(x), 2 * x):
        raise Mistake("not doubled")


DOUBLE = Exercise("double", _doubles, ["multiply", "by two"])


def test_correct_answer_shows_correct(capsys):
    DOUBLE(lambda x: 2 * x)
    assert "Correct" in capsys.readouterr().out


def test_wrong_answer_raises_with_the_mistake_and_seed():
    with pytest.raises(CheckFailed, match="not doubled") as failure:
        DOUBLE(lambda x: x, seed=7)
    assert "seed 7" in str(failure.value)
    assert "Incorrect" in failure.value._render_traceback_()[0]


def test_student_exception_is_reported_in_autograd_terms():
    def backward_twice(x):
        y = (x.requires_grad_() * 2).sum()
        y.backward()
        y.backward()
    with pytest.raises(CheckFailed, match="retain_graph=True"):
        DOUBLE(backward_twice)


def test_untouched_stub_is_not_attempted_interactively_but_fails_when_graded(capsys, monkeypatch):
    def stub(x):
        raise NotImplementedError()
    DOUBLE(stub)
    assert "Not attempted yet" in capsys.readouterr().out
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(NotAttempted):
        DOUBLE(stub)


def test_hints_go_level_by_level():
    hints = Hints("x", ["first", "second"])
    assert "first" in repr(hints.show()) and "again" in repr(hints.show(1))
    assert "second" in repr(hints.show()) and "again" not in repr(hints.show())
    with pytest.raises(ValueError):
        Hints("x", ["only one"])


def test_grader_uses_fresh_seeds_and_reports_them(monkeypatch):
    import course.exercises.backward as backward
    monkeypatch.setattr(backward, "double_test", DOUBLE, raising=False)
    seen_seeds.clear()
    grade("backward.double_test", lambda x: 2 * x, trials=3)
    assert len(set(seen_seeds)) == 3
    with pytest.raises(GradingFailure, match=r"seed \d+") as failure:
        grade("backward.double_test", lambda x: x + 0)
    assert "replay it with check.double" in str(failure.value)


def test_grader_replays_a_pinned_seed(monkeypatch):
    import course.exercises.backward as backward
    monkeypatch.setattr(backward, "double_test", DOUBLE, raising=False)
    monkeypatch.setenv("AUTOGRADE_SEED", "1234")
    seen_seeds.clear()
    grade("backward.double_test", lambda x: 2 * x, trials=1)
    grade("backward.double_test", lambda x: 2 * x, trials=1)
    assert seen_seeds[0] == seen_seeds[1]


def test_grader_refuses_when_the_notebook_replaced_its_tools(monkeypatch):
    assert tampered() == []
    fake = eval("lambda *a, **k: True", {"__name__": "__main__"})
    monkeypatch.setattr(torch, "allclose", fake)
    assert "torch.allclose" in tampered()
    with pytest.raises(GradingFailure, match="grading refused"):
        grade("backward.vjp", lambda f, x, v: x)
    monkeypatch.undo()
    import course.checks.compare
    monkeypatch.setattr(course.checks.compare, "close", fake)
    assert "course.checks.compare.close" in tampered()
