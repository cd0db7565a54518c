"""Judge an answer the way the grader does, in-process: kernel-side observation, sent as data,
judged against the grader's references on fresh seeds. Shared by the tests of every lesson.

``calls_in_order`` forces the order of a trial's three calls (``course/checks/repeated_calls``),
which the seed otherwise picks, so a test can judge one answer under both orders on the same seeds.
"""
from contextlib import contextmanager

import course.exercise
from autograder.grading.judging.verdict import judge_sent
from course.checks import repeated_calls
from course.checks.observation import dumps
from course.exercise import exercises_of, lesson_module
from course.outcome import Verdict

GRADER_SEEDS = (11, 12, 13)
CALL_ORDERS = ((repeated_calls.OTHER, repeated_calls.TRIAL, repeated_calls.TRIAL),
               (repeated_calls.TRIAL, repeated_calls.OTHER, repeated_calls.TRIAL))


@contextmanager
def calls_in_order(order: tuple[str, ...]):
    """Every trial inside calls the answer in ``order``, whatever its seed: the self-check and
    ``graded`` alike, since both observe through ``Exercise.observe``."""
    assert order in CALL_ORDERS, order
    assert course.exercise.call_order is repeated_calls.call_order, "Exercise.observe no longer asks call_order"
    course.exercise.call_order = lambda seed: order
    try:
        yield
    finally:
        course.exercise.call_order = repeated_calls.call_order


def exercise(assignment: str, name: str):
    return exercises_of(lesson_module(assignment))[name]


def graded(assignment: str, name: str, answer, seeds=GRADER_SEEDS) -> Verdict:
    """The first failing verdict over ``seeds``, else the last (correct) one."""
    ex = exercise(assignment, name)
    for seed in seeds:
        result = judge_sent(ex, seed, dumps(ex.observe(answer, seed)))
        if not result.passed:
            return result
    return result
