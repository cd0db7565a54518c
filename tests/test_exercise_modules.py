"""Every declared exercise, in every lesson: named once, hints that nudge, a stub is 'not attempted'
everywhere, stored self-check values are current, and no answer ships with the student package."""
import importlib
import pkgutil

import pytest

import course.exercises
from autograder.authoring import expectations
from course.outcome import NOT_ATTEMPTED, NotAttempted
from trial import graded

LESSONS = [info.name for info in pkgutil.iter_modules(course.exercises.__path__)]
EXERCISES = [(lesson, name, ex) for lesson in LESSONS
             for name, ex in importlib.import_module(f"course.exercises.{lesson}").EXERCISES.items()]
ASSIGNMENT = {"graph": "01_graph", "backward": "02_backward", "no_grad": "03_no_grad", "zero_grad": "04_zero_grad"}


def stub(*args, **kwargs):
    raise NotImplementedError()


@pytest.mark.parametrize("lesson, name, exercise", EXERCISES, ids=[f"{m}.{n}" for m, n, _ in EXERCISES])
def test_exercise_is_well_formed(lesson, name, exercise, capsys, monkeypatch):
    assert (exercise.name, exercise.lesson) == (name, lesson)
    assert len(exercise.hints.texts) >= 2
    exercise(stub)
    assert "Not attempted yet" in capsys.readouterr().out
    assert graded(ASSIGNMENT[lesson], name, stub).outcome == NOT_ATTEMPTED
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    with pytest.raises(NotAttempted):
        exercise(stub)


@pytest.mark.parametrize("lesson", LESSONS)
def test_stored_self_check_values_are_current(lesson):
    with open(expectations.path_of(lesson), encoding="utf-8") as stored:
        assert stored.read() == expectations.text_of(lesson), \
            f"run `autograd-course build` to store lesson {lesson}'s self-check values again"
