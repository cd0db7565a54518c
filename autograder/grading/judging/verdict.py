"""The grader's verdict on one trial, computed in the trusted process.

The kernel sent back what the student's function did on the inputs of a seed; here the same
inputs are rebuilt from the seed, the reference computes the expected values with real PyTorch,
and the exercise's judge compares. Nothing the kernel sent is run, only read, and nothing it
sent can make this process fail: whatever goes wrong while reading or judging it (a number too
large for a float, a structure the judge did not expect) is that trial's "unreadable" verdict.
"""
import torch

from course.checks.observation import Unreadable, loads
from course.checks.random_inputs import fresh_seed
from course.checks.repeated_calls import tensors_in
from course.exercise import Exercise
from course.outcome import INCORRECT, Verdict

from .references import reference


def seeds(trials: int, pinned: int | None = None, exercise: Exercise | None = None) -> list[int]:
    """Fresh seeds; ``pinned`` (``TrustedExecute.replay_seed``) is the first one, to replay a reported
    failure. Given the exercise, at least one trial has float64 inputs (see ``with_float64``)."""
    first = fresh_seed() if pinned is None else pinned
    drawn = [first] + [fresh_seed() for _ in range(trials - 1)]
    return with_float64(exercise, drawn) if exercise is not None else drawn


def _float_dtypes(exercise: Exercise, seed: int) -> set:
    return {t.dtype for t in tensors_in(exercise.inputs(seed)) if t.is_floating_point()}


def with_float64(exercise: Exercise, drawn: list[int], tries: int = 64) -> list[int]:
    """On float32 inputs alone an answer that rounds through float32 (a copy rebuilt from Python
    numbers, say) is right: when no trial's inputs are float64, the last trial is drawn again until
    one is (the first, a replay's, is kept)."""
    if len(drawn) < 2 or any(torch.float64 in _float_dtypes(exercise, s) or not _float_dtypes(exercise, s)
                             for s in drawn):
        return drawn
    for _ in range(tries):
        seed = fresh_seed()
        if torch.float64 in _float_dtypes(exercise, seed):
            return drawn[:-1] + [seed]
    return drawn


def expected_values(exercise: Exercise, seed: int):
    return reference(exercise.lesson, exercise.name)(exercise.inputs(seed))


def judge_sent(exercise: Exercise, seed: int, sent: str | None) -> Verdict:
    """The verdict on what the kernel sent for ``seed`` (None: it sent nothing readable)."""
    if sent is None:
        return Verdict(INCORRECT, f"no result came back from `{exercise.name}`: the kernel stopped answering "
                       "or printed over the grader's channel.", "no_result")
    try:
        seen = loads(sent)
    except Unreadable as error:
        return unreadable(exercise, str(error))
    expected = expected_values(exercise, seed)  # the grader's own: a failure here is a real bug, not hidden
    try:
        return exercise.verdict(seen, expected, seed)
    except Exception as error:  # noqa: BLE001  (the judge read values a kernel chose)
        return unreadable(exercise, f"{type(error).__name__} while judging it")


def unreadable(exercise: Exercise, why: str) -> Verdict:
    return Verdict(INCORRECT, f"the result sent back for `{exercise.name}` could not be read ({why[:200]}).",
                   "unreadable")
