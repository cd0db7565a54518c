"""Calling an answer more than once per trial, so that an answer which keeps state is caught.

A function that carries something from one call to the next (a momentum kept in a global, a list
of every loss seen, a cache filled on the first call) can give the right result the first time it
is called and a wrong one later. So a trial calls the answer three times: twice on the trial's
inputs, and once on other fresh inputs, placed before the two or between them as the seed decides
(the grader's seeds are fresh, so an answer cannot know which call is judged). Both results on the
trial's inputs are judged; when they differ from each other, the answer keeps state, and the
message says so.
"""
import math

import numpy as np
import torch

from .compare import tolerances
from .observation import Flags, Sealed

TRIAL, OTHER = "trial", "other"
RUNS = "__runs__"  # the key of the observation that holds the two judged runs
_OTHER_SEED_STEP = 7_919  # another seed's inputs: a prime step, so it never lands on the trial's own


def other_seed(seed: int) -> int:
    return (seed + _OTHER_SEED_STEP) % 2**31


def call_order(seed: int) -> tuple[str, ...]:
    """The order of one trial's calls: the other inputs first, or between the two judged calls."""
    first = torch.Generator().manual_seed(other_seed(seed) ^ 0x2545F491)
    if torch.randint(0, 2, (), generator=first).item():
        return (OTHER, TRIAL, TRIAL)
    return (TRIAL, OTHER, TRIAL)


def same_observation(a, b) -> bool:
    """Whether two runs on the same inputs saw the same thing: floats within their dtype's tolerance."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return _same_tensor(a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and _same_tensor(torch.from_numpy(a), torch.from_numpy(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_observation(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_observation(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-12)
    if isinstance(a, (Flags, Sealed)) or isinstance(b, (Flags, Sealed)):
        return a == b
    return type(a) is type(b) and a == b


def _same_tensor(a, b) -> bool:
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return False
    if a.dtype != b.dtype or a.shape != b.shape or getattr(a, "_observed_flags", None) != getattr(
            b, "_observed_flags", None):
        return False
    if not (a.is_floating_point() or a.is_complex()):
        return bool(torch.equal(a, b))
    rtol, atol = tolerances(a.dtype)
    return bool(torch.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


def keeps_state_message(name: str, diagnosis: str) -> str:
    """What a student reads when the two judged calls disagreed; the judge's diagnosis follows."""
    text = (f"`{name}` gave a different result when it was called again with the same inputs, so it keeps "
            "something from one call to the next: a variable outside the function (a global list, tensor "
            "or counter), a default argument that is changed, or an attribute set on the function. Make "
            "the result depend only on the arguments of this call.")
    return f"{text}\nOn the call that was wrong: {diagnosis}" if diagnosis else text
