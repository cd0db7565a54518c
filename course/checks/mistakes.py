"""The exception a check raises when it has found what is wrong with an answer."""


class Mistake(Exception):
    """A wrong answer, described in autograd terms for the learner."""


def require(problem: str | None) -> None:
    """Raise the diagnosis as a Mistake when there is one (diagnose_* return None when all is well)."""
    if problem:
        raise Mistake(problem)
