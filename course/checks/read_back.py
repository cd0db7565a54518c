"""Reading what an answer's run sent back, refused with a Mistake when it is not what the judge reads.

The kernel sends plain data, and a judge zips it against the expected values: a short list would pass
by skipping cases, so each list is refused unless it has one entry per case. The lessons word the
refusal each their own way (``same_length``, ``entries``, ``listed``).
"""
import torch

from .diagnose import describe_value
from .mistakes import Mistake


def same_length(got, want: list, what: str) -> list:
    """The list sent back, refused unless it has one entry per trial (a short list must not pass)."""
    if not isinstance(got, list) or len(got) != len(want):
        raise Mistake(f"the check expected {len(want)} {what} and got something else back.", "unreadable")
    return got


def entries(seen, key: str, count: int) -> list:
    """``seen[key]`` as a list of ``count`` entries: a short list must not pass by skipping cases."""
    got = seen[key]
    if not isinstance(got, list) or len(got) != count:
        raise Mistake("the check could not read what your function did: return what the exercise asks for.",
                      "unreadable")
    return got


def listed(value, count: int, what: str) -> list:
    """A list of exactly ``count`` entries, or a Mistake: zip() over a short list would pass by accident."""
    if not isinstance(value, list) or len(value) != count:
        raise Mistake(f"the check expected {count} results for {what}, got "
                      f"{len(value) if isinstance(value, list) else type(value).__name__}.", "unreadable")
    return value


def pair(got, names: str):
    """The two results an exercise returns together, or a Mistake saying what came back instead."""
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        raise Mistake(f"return a pair ({names}): your function returned {describe_value(got)}.", "not_a_pair")
    return got


def number(got, what: str) -> float:
    """One number, as a float or a one-element tensor."""
    if isinstance(got, torch.Tensor) and got.numel() == 1:
        return float(got.detach())
    if isinstance(got, (int, float)) and not isinstance(got, bool):
        return float(got)
    raise Mistake(f"{what} should be one number (a float or a one-element tensor), got "
                  f"{'None: a missing `return`?' if got is None else type(got).__name__}.", "not_a_number")


def returned_again(results: list) -> list | None:
    """[earlier, later]: the first two calls, within one run of the check, that returned the very same tensor
    object, although each had its own f and x (a cache keyed on a shape hands one result back); else None.
    Computed where the answer ran: identity does not survive the trip to the grader."""
    for later, got in enumerate(results):
        for earlier in range(later):
            if isinstance(got, torch.Tensor) and results[earlier] is got:
                return [earlier, later]
    return None


def handed_back_within(name: str, what: list[str], repeat: list | None) -> None:
    """The Mistake for a result handed back by ``returned_again`` (``what`` names each call's case)."""
    if repeat:
        earlier, later = repeat
        raise Mistake(f"`{name}` returned, for {what[later]}, the very tensor object it had returned for "
                      f"{what[earlier]}: a cache (a dict in a global or a default argument, keyed on the input's "
                      "shape, say) handed back an old result. Build everything from the arguments on each call.",
                      "keeps_state")
