"""An exercise: a declared thing with a check, levels of hints and three outcomes.

The check itself (``trial``) draws its inputs from a seeded generator and asks PyTorch for the
expected result. The self-check runs it on one small fixed seed; the autograder runs the same
trial on fresh seeds, so a hard-coded number passes neither for long.
"""
from typing import Callable

import torch

from . import outcome
from .explain_error import explain_error
from .hints import Hints
from .mistakes import Mistake
from .random_inputs import DEMO_SEED, generator

Trial = Callable[[object, torch.Generator], None]


class StudentError(Exception):
    """The answer raised an exception of its own; the message says which and why."""


class Exercise:
    def __init__(self, name: str, trial: Trial, hints: list[str], praise: str = ""):
        self.name, self.trial, self.praise = name, trial, praise
        self.hints = Hints(name, hints)

    def run(self, answer, seed: int) -> None:
        """One trial: returns on success, raises Mistake, StudentError or NotImplementedError."""
        try:
            with torch.random.fork_rng():  # the student's own random calls stay reproducible
                torch.manual_seed(seed)
                self.trial(answer, generator(seed))
        except (Mistake, NotImplementedError):
            raise
        except Exception as error:  # an exception from the student's code, shown in autograd terms
            raise StudentError(f"your code raised {explain_error(error)}") from error

    def __call__(self, answer, *, seed: int = DEMO_SEED) -> None:
        """The self-check: call it with your answer; pass seed= to replay a grader's failure."""
        try:
            self.run(answer, seed)
        except NotImplementedError:
            return outcome.show(outcome.not_attempted(self.name))
        except (Mistake, StudentError) as wrong:
            raise outcome.CheckFailed(f"{wrong}\n(checked `{self.name}` with seed {seed})") from None
        outcome.show(outcome.correct(self.praise or f"`{self.name}` matches PyTorch on the check's inputs."))

    def hint(self, level: int | None = None):
        """Each call shows the next level; hint(1) or hint(2) shows that one."""
        return self.hints.show(level)
