"""Name the autograd mistake behind a wrong gradient.

One function serves the student's self-check and the hidden tests alike, so the grader never
says anything the self-check could not have said.
"""
import torch

from .compare import close, largest_difference
from .mistakes import Diagnosis as D

_MULTIPLES = (2, 3, 4, 5)


def _describe(t) -> str:
    if isinstance(t, torch.Tensor):
        return f"a tensor of shape {tuple(t.shape)} and dtype {t.dtype}"
    if isinstance(t, (list, tuple)):
        return _describe_sequence(t)
    return _PLAIN_NAMES.get(type(t).__name__, f"a {type(t).__name__} object")


# What a learner calls the things a function can return by mistake (not Python's class names).
_PLAIN_NAMES = {
    "NoneType": "None",
    "bool": "a bool (True or False)",
    "int": "a Python int",
    "float": "a Python float (.item() or float() turns a tensor into one)",
    "complex": "a Python complex number",
    "str": "a string",
    "dict": "a dict",
    "ndarray": "a NumPy array (torch.from_numpy() turns it back into a tensor)",
    "generator": "a generator (a list comprehension in round brackets?)",
}


def describe_value(value) -> str:
    """"a tensor of shape (3,) and dtype torch.float32", "a list of 3 tensors...": for messages."""
    return _describe(value)


def shape_of(x: torch.Tensor, name: str = "x") -> str:
    """"an x of shape (1, 3) in float32", "a 0-d x (a single number) in float64": which input a message is about,
    when an exercise calls the answer on several."""
    dtype = str(x.dtype).replace("torch.", "")
    if x.dim() == 0:
        return f"a 0-d {name} (a single number) in {dtype}"
    return f"an {name} of shape {tuple(x.shape)} in {dtype}"


def _describe_sequence(items) -> str:
    """Say what is inside a list, since the fix depends on it: stack tensors, keep numbers as tensors."""
    kind = type(items).__name__
    if not items:
        return f"an empty {kind}"
    types = {type(v).__name__ for v in items}
    if len(types) > 1:
        return f"a {kind} of {len(items)} items of mixed types ({', '.join(sorted(types))})"
    if isinstance(items[0], torch.Tensor):
        shapes = {tuple(v.shape) for v in items}
        shape = f" of shape {shapes.pop()}" if len(shapes) == 1 else ""
        return (f"a {kind} of {len(items)} tensors{shape}: torch.stack() makes one tensor of them")
    if isinstance(items[0], (int, float)):
        return (f"a {kind} of {len(items)} Python numbers: keep the result as a tensor "
                "(no .tolist() or .item())")
    count = f"{len(items)} item" + ("s" if len(items) > 1 else "")
    return f"a {kind} of {count}, the first {_describe(items[0])}"


def _is_sequence(value) -> bool:
    return isinstance(value, (list, tuple))


def diagnose_tensor(expected: torch.Tensor, actual, what: str = "the result",
                    backward_calls: int | None = None) -> str | None:
    """Type, shape and dtype problems: the mistakes that come before any arithmetic.

    ``backward_calls`` is how many times the answer called backward(), when the check counted:
    a None result is then most likely a ``.grad`` that backward() never filled, not a lost return.
    """
    if actual is None:
        return _none_returned(what, backward_calls)
    if not isinstance(actual, torch.Tensor):
        return D(f"{what} should be a tensor, but it is {_describe(actual)}.", "not_a_tensor")
    if actual.shape != expected.shape:
        hint = ""
        squeezed = tuple(d for d in expected.shape if d != 1)
        if actual.numel() == 1 and expected.numel() > 1:
            hint = " It looks reduced to one number: did you sum or take .item() too early?"
        elif actual.dim() < expected.dim() and tuple(actual.shape) == squeezed:
            hint = (" Its dimensions of size 1 are gone: .squeeze() (or a reshape) drops them. Keep every "
                    "dimension, those of size 1 too.")
        elif actual.dim() > expected.dim() and tuple(d for d in actual.shape if d != 1) == squeezed:
            hint = (" It has an extra dimension of size 1: a reshape (view(-1), unsqueeze(), [None]) adds one. "
                    "Keep the expected shape.")
        elif actual.numel() == expected.numel() and actual.dim() == expected.dim() - 1:
            hint = (" Same number of elements in one dimension fewer: were the rows joined end to end "
                    "(torch.cat), where torch.stack puts each in a new first dimension, or the result flattened "
                    "(view(-1), flatten())?")
        elif actual.numel() == expected.numel():
            hint = " Same number of elements: is it transposed or reshaped?"
        return D(f"{what} has shape {tuple(actual.shape)}, expected {tuple(expected.shape)}.{hint}", "wrong_shape")
    if actual.dtype != expected.dtype:
        return D(f"{what} has dtype {actual.dtype}, expected {expected.dtype}: keep the input's dtype.", "wrong_dtype")
    return None


def _none_returned(what: str, backward_calls: int | None) -> str:
    if backward_calls == 0:
        return D(f"{what} is None: backward() was never called, and .grad stays None until backward() "
                 "reaches the tensor.", "grad_none_no_backward")
    if backward_calls:
        return D(f"{what} is None: backward() ran but never reached the tensor whose .grad you returned. "
                 "Was the output computed from that tensor (the copy that requires grad)?",
                 "grad_none_not_reached")
    return D(f"{what} is None: nothing was computed or returned (a missing `return`?).", "none_returned")


def diagnose_values(expected: torch.Tensor, actual: torch.Tensor, what: str = "the result",
                    stale: torch.Tensor | None = None) -> str | None:
    """Wrong numbers, matched against the patterns autograd mistakes leave behind.

    ``stale`` is what ``.grad`` held before the student's code ran, if the check planted it.
    """
    if torch.is_complex(actual) is False and torch.isnan(actual.detach()).any():
        return D(f"{what} contains NaN: a division by zero or log of a non-positive number?", "nan")
    if close(actual, expected):
        return None
    if stale is not None and close(actual, expected + stale):
        return D((f"{what} equals the expected gradient plus what .grad held before: gradients "
                "accumulate, so reset .grad before backward() (p.grad = None, or p.grad.zero_() when it is not None, "
                "on each tensor p)."), "stale_grad")
    if not close(expected, torch.zeros_like(expected)):
        for k in _MULTIPLES:
            if close(actual, k * expected):
                return D((f"{what} is {k} times the expected gradient. Did .grad add up over {k} "
                        "backward() calls with no reset between them, or is there a factor of "
                        f"{k} too many (a sum where a mean belongs)?"), "grad_accumulated")
        if close(actual, torch.zeros_like(expected)):
            return D((f"{what} is all zeros: no gradient reached it. Was the tensor cut out of the graph "
                    "(detach(), .data, no_grad), or was .grad zeroed after backward() instead of before?"),
                     "all_zeros")
        if close(actual, -expected):
            return D(f"{what} has the wrong sign everywhere: check for a flipped minus sign.", "wrong_sign")
        if expected.dim() == 2 and close(actual.mT, expected) and expected.shape == actual.mT.shape:
            return D(f"{what} is the transpose of the expected one: rows and columns are swapped.", "transposed")
    error, index = largest_difference(actual, expected)
    where = f" at index {index}" if index else ""
    return D(f"{what} differs from PyTorch's result: the largest error is {error:.3g}{where}.", "wrong_value")


def diagnose_gradient(expected: torch.Tensor, actual, what: str = "the gradient",
                      tensor: torch.Tensor | None = None, stale: torch.Tensor | None = None,
                      backward_calls: int | None = None) -> str | None:
    """None when ``actual`` matches; otherwise one sentence naming the likely mistake.

    ``tensor`` is the tensor whose ``.grad`` was read, when there is one: a None gradient is
    explained by its flags (never backpropagated, not a leaf, not requiring grad).
    ``backward_calls``, when the check counted them, explains a None gradient the same way.
    """
    if actual is None and tensor is not None:
        if not tensor.requires_grad:
            return D(f"{what} is None because the tensor does not require grad: set requires_grad=True.", "grad_none_no_requires_grad")
        if not tensor.is_leaf:
            return D((f"{what} is None: the tensor is not a leaf, and autograd only keeps .grad of "
                    "leaves. Call .retain_grad() on it before backward()."), "grad_none_not_leaf")
        return D(f"{what} is None: .grad stays None until backward() runs. Did you call backward()?", "grad_none_no_backward")
    return diagnose_tensor(expected, actual, what, backward_calls) or diagnose_values(expected, actual, what, stale)


def diagnose_swapped(expected: tuple, actual, names: tuple[str, str]) -> str | None:
    """A pair returned in the wrong order: each item matches the other's expected value."""
    if not (_is_sequence(actual) and len(actual) == 2 and all(isinstance(v, torch.Tensor) for v in actual)):
        return None
    (want_a, want_b), (got_a, got_b) = expected, actual
    if close(want_a, want_b) or not (close(got_a, want_b) and close(got_b, want_a)):
        return None
    return D(f"your pair is in the wrong order: the first item is {names[1]} and the second is {names[0]}. "
             f"Return ({names[0]}, {names[1]}).", "pair_swapped")


def diagnose_aliased_rows(expected: torch.Tensor, actual, what: str = "the result") -> str | None:
    """Every row the same although the expected rows differ: the rows were one tensor object.

    Appending ``x.grad`` (not a clone) after each backward(), with ``x.grad.zero_()`` between the
    calls, stacks the same in-place-updated tensor again and again: every row shows the last value.
    """
    if not isinstance(actual, torch.Tensor) or actual.shape != expected.shape or expected.dim() < 1 \
            or expected.shape[0] < 2:
        return None
    rows_alike = all(close(row, actual[0]) for row in actual[1:])
    expected_alike = all(close(row, expected[0]) for row in expected[1:])
    if not rows_alike or expected_alike:
        return None
    return D(f"every row of {what} is the same: the rows alias one .grad tensor, which each backward() "
             "(and zero_()) updates in place. Append x.grad.clone(), or set x.grad = None before each call.",
             "rows_aliased")
