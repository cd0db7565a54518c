"""The exception a check raises when it has found what is wrong with an answer.

Every mistake carries a stable ``kind`` (a short slug) beside its message, so a class report can
count mistakes by what went wrong rather than by the exact words, which name shapes and seeds.
"""


class Diagnosis(str):
    """A diagnosis sentence that remembers which kind of mistake it names."""

    kind = "wrong_value"

    def __new__(cls, text: str, kind: str = "wrong_value"):
        made = super().__new__(cls, text)
        made.kind = kind
        return made


class Mistake(Exception):
    """A wrong answer, described in autograd terms for the learner."""

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        self.kind = kind or getattr(message, "kind", None) or "wrong_answer"


def require(problem: str | None) -> None:
    """Raise the diagnosis as a Mistake when there is one (diagnose_* return None when all is well)."""
    if problem:
        raise Mistake(problem, getattr(problem, "kind", None))
