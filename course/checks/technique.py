"""Checks on *how* an answer works, not just what it returns.

An exercise that teaches backward() should not pass by calling a shortcut that hides it, and
no answer may quietly change the tensors it was given.
"""
import inspect
import math
from contextlib import ExitStack, contextmanager

import torch
from torch.overrides import TorchFunctionMode

from .mistakes import Mistake


NO_AUTOGRAD_GRAD = ("this exercise is about backward() and .grad: don't call torch.autograd.grad here, nor a "
                    "ready-made helper that calls it (torch.autograd.functional's jacobian, vjp and hessian, "
                    "torch.func's grad, vjp and jacrev). Call backward() and read .grad.")


GRAD_RETURNS_A_TUPLE = ("torch.autograd.grad returns a tuple, one gradient per input you name, even for one input: "
                       "unpack it, (g,) = torch.autograd.grad(...), or take its [0].")


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


def inputs_kept(before: list[torch.Tensor], after: list[torch.Tensor], names: list[str],
                weights: tuple[str, ...] = ("v",)) -> None:
    """Raise if an answer changed its inputs' values or flags in place. ``weights`` name inputs that
    only weight a result (v of a vector-Jacobian product): they never need requires_grad."""
    for old, new, name in zip(before, after, names):
        if name in weights and new.requires_grad and not old.requires_grad:
            raise Mistake(f"your code changed `{name}.requires_grad` on the tensor it was given: `{name}` only "
                          "weights the outputs, so it needs no gradient. Leave it as given.", "input_changed")
        if old.requires_grad and not new.requires_grad:
            raise Mistake(f"your code switched off `{name}.requires_grad` on the tensor it was given (detach_() "
                          "and requires_grad_(False) change the caller's own tensor): `"
                          f"{name}.detach()` gives a new tensor without history and leaves `{name}` as it is.",
                          "input_changed")
        if new.requires_grad != old.requires_grad:
            raise Mistake(f"your code changed `{name}.requires_grad` on the tensor it was given: work on "
                          f"a copy, e.g. `{name}.detach().clone().requires_grad_(True)`.", "input_changed")
        if not torch.equal(new.detach(), old.detach()):
            raise Mistake(f"your code changed the values of `{name}` in place: leave inputs as given.",
                          "input_changed")


def grad_not_left(tensors: list[torch.Tensor], names: list[str]) -> None:
    """The caller's tensors come with no .grad and must leave with none: a backward() that reached the
    caller's own tensor (made to require grad, even if switched back afterwards) leaves a gradient there."""
    for t, name in zip(tensors, names):
        if t.grad is not None:
            raise Mistake(f"your code left a gradient in `{name}.grad`, on the tensor it was given: a backward() "
                          f"reached the caller's `{name}` itself (made to require grad, even if switched back "
                          f"afterwards), so the caller's tensor is changed. Work on a copy, "
                          f"`{name}.detach().clone().requires_grad_(True)`, and leave `{name}` as it was given.",
                          "grad_left_on_input")


def weights_kept(before: torch.Tensor, v: torch.Tensor) -> None:
    """v weights the outputs and is never differentiated: the generic advice (a copy that requires grad) does not fit."""
    if v.requires_grad != before.requires_grad:
        raise Mistake("your code changed `v.requires_grad` on the tensor it was given: v only weights the outputs, "
                      "and nothing is differentiated with respect to it, so it needs no requires_grad. Leave v as "
                      "it was given.", "input_changed")


def snapshot(*tensors: torch.Tensor) -> list[torch.Tensor]:
    """Copies to compare with after the answer ran (values and requires_grad)."""
    return [t.detach().clone().requires_grad_(t.requires_grad) for t in tensors]


@contextmanager
def counting(owner, attr: str):
    """Record the calls of ``owner.attr`` while it still does its job: one dict of arguments per call.

    ``counting(torch.autograd, "backward")`` sees every ``tensor.backward()`` too, since that
    method calls ``torch.autograd.backward``; an exercise can then say how many times backward()
    ran, or whether it ran with ``create_graph=True``, and not only what came out. Only the
    outermost call counts: under a TorchFunctionMode, torch.autograd.backward hands itself (the
    module's name, so this wrapper) back to the mode, and one call of the answer's would count twice.
    """
    original, calls = getattr(owner, attr), []
    signature = inspect.signature(original)
    depth = [0]

    def counted(*args, **kwargs):
        if depth[0] == 0:
            try:
                calls.append(dict(signature.bind(*args, **kwargs).arguments))
            except TypeError:  # a wrong call: let the original raise PyTorch's own message
                calls.append({})
        depth[0] += 1
        try:
            return original(*args, **kwargs)
        finally:
            depth[0] -= 1

    setattr(owner, attr, counted)
    try:
        yield calls
    finally:
        setattr(owner, attr, original)


def watching_backward():
    """Count backward() and torch.autograd.grad calls: ``calls["backward"]``, ``calls["grad"]``."""
    stack = ExitStack()
    calls = {"backward": stack.enter_context(counting(torch.autograd, "backward")),
             "grad": stack.enter_context(counting(torch.autograd, "grad"))}
    return stack, calls


def times(n) -> str:
    """A count of calls, as a message says it: "once", "3 times"."""
    return "once" if n == 1 else f"{n} times"


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


# --- watching an answer while it runs -----------------------------------------------------------
# Kernel-side watchers shared by the lessons: each restores what it changed, whatever the answer did.

MATH_FUNCTIONS = ("log", "log2", "log10", "log1p", "exp", "expm1", "sin", "cos", "tan", "asin", "acos",
                  "atan", "atan2", "sinh", "cosh", "tanh", "sqrt", "pow", "fabs", "floor", "ceil", "erf")


def _math_on_tensor(name: str) -> Mistake:
    torch_name = f"torch.{name}" if hasattr(torch, name) else "the torch function"
    return Mistake(f"math.{name} was called on a tensor: the math module works on plain Python numbers, so "
                   f"autograd cannot record it (and it fails for more than one element). Use {torch_name}, "
                   "which works elementwise and adds a node to the graph.", "math_on_tensor")


@contextmanager
def math_explained():
    """While the answer runs, math.log(tensor) and friends say why they cannot be in a graph."""
    originals = {name: getattr(math, name) for name in MATH_FUNCTIONS if hasattr(math, name)}

    def guarded(name, original):
        def call(*args, **kwargs):
            if any(isinstance(a, torch.Tensor) for a in args):
                raise _math_on_tensor(name)
            return original(*args, **kwargs)
        return call

    for name, original in originals.items():
        setattr(math, name, guarded(name, original))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(math, name, original)


class _GradMode:
    left_off = False
    turned_on = False  # called inside the caller's no_grad(), the answer switched recording on


@contextmanager
def grad_mode_watched():
    """Notes whether the answer changed the caller's grad mode (either way), and restores it."""
    seen, was_on = _GradMode(), torch.is_grad_enabled()
    try:
        yield seen
    finally:
        seen.left_off = was_on and not torch.is_grad_enabled()
        seen.turned_on = not was_on and torch.is_grad_enabled()
        torch.set_grad_enabled(was_on)


def grad_mode_judged(got: dict, name: str, inside_no_grad: bool = False) -> None:
    """The caller's grad mode is the caller's: on stays on, and off (inside its no_grad()) stays off."""
    if inside_no_grad:
        if got["grad_mode_turned_on"] is not False:
            raise Mistake(f"autograd is recording after `{name}` returned, though the caller called it inside "
                          "its own `with torch.no_grad():` block: torch.set_grad_enabled(True) switches "
                          "recording on whatever the mode was before. Use `with torch.no_grad():`, which "
                          "restores the caller's mode when the block ends.", "grad_mode_turned_on")
    elif got["grad_mode_left_off"] is not False:
        raise Mistake(f"autograd is still switched off after `{name}` returned: torch.set_grad_enabled(False) "
                      "lasts until it is switched back, for every later cell. Use `with torch.no_grad():`, "
                      "which restores the previous mode when the block ends.", "grad_mode_left_off")


_TENSOR_DATA = torch._C.TensorBase.data


@contextmanager
def data_watched():
    """Notes every read or write of ``.data``, the attribute that changes values behind autograd's back."""
    used = []

    def read(t):
        used.append("read")
        return _TENSOR_DATA.__get__(t)

    def write(t, value):
        used.append("write")
        _TENSOR_DATA.__set__(t, value)

    torch.Tensor.data = property(read, write)
    try:
        yield used
    finally:
        del torch.Tensor.data
