"""What a hidden test calls: the exercise's own trial, on fresh seeded random inputs.

The seed is in every failure message, so the student can replay it with the self-check.
"""
import importlib
import os

from course.exercise import StudentError
from course.mistakes import Mistake
from course.outcome import CheckFailed
from course.random_inputs import fresh_seed

from .integrity import tampered

TRIALS = 3


class GradingFailure(CheckFailed):
    """A hidden test's verdict; rendered without a traceback so no hidden code shows."""


def seeds(trials: int) -> list[int]:
    """Fresh seeds; AUTOGRADE_SEED pins the first one to replay a reported failure."""
    pinned = os.environ.get("AUTOGRADE_SEED")
    first = int(pinned) if pinned else fresh_seed()
    return [first] + [fresh_seed() for _ in range(trials - 1)]


def load_exercise(path: str):
    """``"backward.vjp"`` -> the Exercise object ``vjp`` in ``course.exercises.backward``."""
    module_name, _, name = path.rpartition(".")
    return getattr(importlib.import_module(f"course.exercises.{module_name}"), name)


def grade(path: str, answer, trials: int = TRIALS) -> None:
    """Pass silently, or raise GradingFailure naming the mistake and the seed that showed it."""
    replaced = tampered()
    if replaced:
        raise GradingFailure("grading refused: the notebook replaced functions the grader relies on "
                             f"({', '.join(sorted(replaced))}). Remove that code and resubmit.")
    exercise = load_exercise(path)
    for seed in seeds(trials):
        try:
            exercise.run(answer, seed)
        except NotImplementedError:
            raise GradingFailure(f"`{exercise.name}` was not attempted: it still raises "
                                 "NotImplementedError.") from None
        except (Mistake, StudentError) as wrong:
            raise GradingFailure(f"{wrong}\n(hidden test on fresh random inputs, seed {seed}: "
                                 f"replay it with check.{exercise.name}(..., seed={seed}))") from None
