"""Checks on *how* an answer works, not just what it returns.

An exercise that teaches backward() should not pass by calling a shortcut that hides it, and
no answer may quietly change the tensors it was given.
"""
import inspect
from contextlib import contextmanager

import torch
from torch.overrides import TorchFunctionMode

from .mistakes import Mistake


NO_AUTOGRAD_GRAD = ("this exercise is about backward() and .grad: don't call torch.autograd.grad here "
                    "(torch.func's grad, vjp and jacrev call it too).")


def oracle_leaf(x: torch.Tensor) -> torch.Tensor:
    """The check's own copy of an input, so nothing the answer did to ``x`` touches the expected value."""
    return x.detach().clone().requires_grad_(True)


@contextmanager
def forbidden(owner, attr: str, why: str, kind: str = "forbidden_shortcut"):
    """Make ``owner.attr`` raise a Mistake for the duration, e.g. a ready-made jacobian()."""
    original = getattr(owner, attr)

    def refuse(*args, **kwargs):
        raise Mistake(why, kind)

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
                          f"a copy, e.g. `{name}.detach().clone().requires_grad_(True)`.", "input_changed")
        if not torch.equal(new.detach(), old.detach()):
            raise Mistake(f"your code changed the values of `{name}` in place: leave inputs as given.",
                          "input_changed")


def snapshot(*tensors: torch.Tensor) -> list[torch.Tensor]:
    """Copies to compare with after the answer ran (values and requires_grad)."""
    return [t.detach().clone().requires_grad_(t.requires_grad) for t in tensors]


@contextmanager
def counting(owner, attr: str):
    """Record the calls of ``owner.attr`` while it still does its job: one dict of arguments per call.

    ``counting(torch.autograd, "backward")`` sees every ``tensor.backward()`` too, since that
    method calls ``torch.autograd.backward``; an exercise can then say how many times backward()
    ran, or whether it ran with ``create_graph=True``, and not only what came out.
    """
    original, calls = getattr(owner, attr), []
    signature = inspect.signature(original)

    def counted(*args, **kwargs):
        try:
            calls.append(dict(signature.bind(*args, **kwargs).arguments))
        except TypeError:  # a wrong call: let the original raise PyTorch's own message
            calls.append({})
        return original(*args, **kwargs)

    setattr(owner, attr, counted)
    try:
        yield calls
    finally:
        setattr(owner, attr, original)


class TorchCalls(TorchFunctionMode):
    """Which torch functions an answer called, and with what first argument for the ones named.

    A ``TorchFunctionMode`` sees ``torch.sin(x)`` and ``x.sin()`` alike, so an exercise can check
    how a result was computed ("h only once", "no finite differences") and not just its value.
    """

    def __init__(self, keep_arguments: tuple[str, ...] = ()):
        super().__init__()
        self.keep = keep_arguments
        self.names: list[str] = []
        self.arguments: dict[str, list[torch.Tensor]] = {name: [] for name in keep_arguments}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", str(func))
        self.names.append(name)
        if name in self.keep and args and isinstance(args[0], torch.Tensor):
            self.arguments[name].append(args[0].detach().clone())
        return func(*args, **(kwargs or {}))

    def count(self, name: str) -> int:
        return self.names.count(name)
