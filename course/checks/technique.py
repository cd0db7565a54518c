"""Checks on *how* an answer works, not just what it returns.

An exercise that teaches backward() should not pass by calling a shortcut that hides it, and
no answer may quietly change the tensors it was given.
"""
from contextlib import contextmanager

import torch

from .mistakes import Mistake


NO_AUTOGRAD_GRAD = "this exercise is about backward() and .grad: don't call torch.autograd.grad here."


def oracle_leaf(x: torch.Tensor) -> torch.Tensor:
    """The check's own copy of an input, so nothing the answer did to ``x`` touches the expected value."""
    return x.detach().clone().requires_grad_(True)


@contextmanager
def forbidden(owner, attr: str, why: str):
    """Make ``owner.attr`` raise a Mistake for the duration, e.g. a ready-made jacobian()."""
    original = getattr(owner, attr)

    def refuse(*args, **kwargs):
        raise Mistake(why)

    setattr(owner, attr, refuse)
    try:
        yield
    finally:
        setattr(owner, attr, original)


def inputs_kept(before: list[torch.Tensor], after: list[torch.Tensor], names: list[str]) -> None:
    """Raise if an answer changed its inputs' values or flags in place."""
    for old, new, name in zip(before, after, names):
        if new.requires_grad != old.requires_grad:
            raise Mistake(f"your code changed `{name}.requires_grad` on the tensor it was given: work on "
                          f"a copy, e.g. `{name}.detach().clone().requires_grad_(True)`.")
        if not torch.equal(new.detach(), old.detach()):
            raise Mistake(f"your code changed the values of `{name}` in place: leave inputs as given.")


def snapshot(*tensors: torch.Tensor) -> list[torch.Tensor]:
    """Copies to compare with after the answer ran (values and requires_grad)."""
    return [t.detach().clone().requires_grad_(t.requires_grad) for t in tensors]
