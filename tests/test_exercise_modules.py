"""Every declared exercise, in every lesson: two or more hints, and a stub is 'not attempted'."""
import importlib
import pkgutil

import pytest

import course.exercises
from autograder import grade
from autograder.grade import GradingFailure
from course.exercise import Exercise
from course.outcome import NotAttempted

EXERCISES = [(info.name, name, value)
             for info in pkgutil.iter_modules(course.exercises.__path__)
             for name, value in vars(importlib.import_module(f"course.exercises.{info.name}")).items()
             if isinstance(value, Exercise)]


def stub(*args, **kwargs):
    raise NotImplementedError()


@pytest.mark.parametrize("module, name, exercise", EXERCISES, ids=[f"{m}.{n}" for m, n, _ in EXERCISES])
def test_exercise_is_well_formed(module, name, exercise, capsys, monkeypatch):
    assert exercise.name == name, "the Exercise's name must match the attribute the hidden test grades"
    assert len(exercise.hints.texts) >= 2
    exercise(stub)
    assert "Not attempted yet" in capsys.readouterr().out
    with pytest.raises(GradingFailure, match="not attempted"):
        grade(f"{module}.{name}", stub)
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    with pytest.raises(NotAttempted):
        exercise(stub)
