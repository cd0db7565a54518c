"""The corpus judged on many seeds, as the grader judges: every wrong answer must fail on each seed
with the message it names, every correct answer must pass on each, and the self-check must agree.

Each seed is judged as a grading's first trial is: the answer defined afresh (a new kernel, so no
state of an earlier seed's calls), its observation sent as data and judged against the grader's
references (``judge_sent``); then its self-check runs, on a fresh definition too, on the stored
seeds. What does not hold is a ``Finding``: a check that let a wrong answer through on some
seed (or failed a correct one) is a defect of the check or of the corpus answer, and a message the
grader gives on a seed without the answer's expected words is a student told one thing by the
notebook and another by the grader.

``tests/test_corpus_sweep.py`` runs it on a few fresh seeds per answer; ``benchmarks/corpus_sweep.py``
on many.
"""
import os
from dataclasses import dataclass

from autograder.authoring.wrong_answers import load_corpus
from autograder.grading.judging.verdict import judge_sent
from conftest import ROOT
from course.checks.object_identity import kept_alive
from course.checks.observation import dumps
from course.stored_values import stored_seeds
from lesson_solutions import define
from test_correct_answers import load_correct_answers
from trial import exercise

PASSES, FAILS, ANOTHER_MESSAGE = "a wrong answer passes", "a correct answer fails", "another message"


@dataclass(frozen=True)
class Answer:
    assignment: str
    name: str
    replaces: str
    code: str
    expect: tuple = ()  # a wrong answer's message fragments; () for a correct answer

    @property
    def wrong(self) -> bool:
        return bool(self.expect)

    def said_in(self, message: str) -> bool:
        return any(fragment in message for fragment in self.expect)


@dataclass(frozen=True)
class Finding:
    answer: Answer
    what: str
    where: str  # "seed 123" or "self-check"
    message: str

    def line(self) -> str:
        first = self.message.splitlines()[0][:160] if self.message else ""
        return f"{self.answer.assignment}/{self.answer.name}: {self.what} ({self.where}){': ' + first if first else ''}"


def corpus() -> list[Answer]:
    wrong = [Answer(a.assignment, a.name, a.replaces, a.code, a.expect)
             for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))]
    return wrong + [Answer(assignment, name, replaces, code) for assignment, name, replaces, code in load_correct_answers()]


def sweep(answer: Answer, seeds) -> list[Finding]:
    """What does not hold for ``answer`` on ``seeds`` and in its self-check."""
    checked, found = exercise(answer.assignment, answer.replaces), []
    for seed in seeds:
        with kept_alive():
            seen, _ = checked.observe_warned(define(answer.code, answer.replaces), seed)
        found += _judged(answer, judge_sent(checked, seed, dumps(seen)), f"seed {seed}")
    result, _, _ = checked.self_check(define(answer.code, answer.replaces), stored_seeds(checked.lesson, checked.name))
    return found + _judged(answer, result, "self-check")


def _judged(answer: Answer, result, where: str) -> list[Finding]:
    if answer.wrong and result.passed:
        return [Finding(answer, PASSES, where, "")]
    if answer.wrong and not answer.said_in(result.message):
        return [Finding(answer, ANOTHER_MESSAGE, where, result.message)]
    if not answer.wrong and not result.passed:
        return [Finding(answer, FAILS, where, result.message)]
    return []
