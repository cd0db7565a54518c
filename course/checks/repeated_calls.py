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


# Diagnoses of a wrong call that name the state themselves (a leaf, an optimizer or hooks from an earlier call).
ABOUT_STATE = {"stale_leaf", "f_not_at_x", "rebound_not_in_place", "keeps_state"}


def keeps_state_message(name: str, wrong_call: str = "", kind: str = "") -> str:
    """What a student reads when the two judged calls disagreed. The wrong call's diagnosis is added
    only when it is an error raised (a fact) or itself about state: a value diagnosis would blame the
    arithmetic for what the state did."""
    text = (f"`{name}` gave a different result when it was called again with the same inputs, so it keeps "
            f"something from one call to the next: {KINDS_OF_STATE}. {FIX}")
    return f"{text}\nOn the call that failed: {wrong_call}" if wrong_call and kind in ABOUT_STATE | {"raised"} else text


def handed_back_message(name: str) -> str:
    """What a student reads when a call returned the very tensor object an earlier call returned."""
    return (f"`{name}` returned the very tensor object it had returned on an earlier call, so it keeps "
            "something from one call to the next: a cache (a dict in a global or a default argument, keyed "
            f"on the input's shape, id or values, say) handed back an old result. {FIX}")


KINDS_OF_STATE = ("a global (a list, a dict used as a cache, a counter), a default argument that is changed, an "
                  "attribute set on the function, or a leaf made on one call and reused, whose .grad adds up")
FIX = "Build everything from the arguments on each call."


def tensors_in(seen) -> list[torch.Tensor]:
    """Every tensor object in what one call saw, to tell when a later call hands one back."""
    if isinstance(seen, torch.Tensor):
        return [seen]
    if isinstance(seen, dict):
        seen = list(seen.values())
    if isinstance(seen, (list, tuple)):
        return [t for item in seen for t in tensors_in(item)]
    return []
