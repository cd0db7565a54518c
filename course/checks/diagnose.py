"""Name the autograd mistake behind a wrong gradient.

One function serves the student's self-check and the hidden tests alike, so the grader never
says anything the self-check could not have said.
"""
import torch

from .compare import close, largest_difference
from .mistakes import Diagnosis as D

_MULTIPLES = (2, 3, 4, 5)


def _describe(t) -> str:
    return f"a {type(t).__name__}" if not isinstance(t, torch.Tensor) else \
        f"a tensor of shape {tuple(t.shape)} and dtype {t.dtype}"


def diagnose_tensor(expected: torch.Tensor, actual, what: str = "the result") -> str | None:
    """Type, shape and dtype problems: the mistakes that come before any arithmetic."""
    if actual is None:
        return D(f"{what} is None: nothing was computed or returned (a missing `return`?).", "none_returned")
    if not isinstance(actual, torch.Tensor):
        return D(f"{what} should be a tensor, but it is {_describe(actual)}.", "not_a_tensor")
    if actual.shape != expected.shape:
        hint = ""
        if actual.numel() == 1 and expected.numel() > 1:
            hint = " It looks reduced to one number: did you sum or take .item() too early?"
        elif actual.numel() == expected.numel():
            hint = " Same number of elements: is it transposed or reshaped?"
        return D(f"{what} has shape {tuple(actual.shape)}, expected {tuple(expected.shape)}.{hint}", "wrong_shape")
    if actual.dtype != expected.dtype:
        return D(f"{what} has dtype {actual.dtype}, expected {expected.dtype}: keep the input's dtype.", "wrong_dtype")
    return None


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
                "accumulate, so reset .grad (zero_grad() or .grad = None) before backward()."), "stale_grad")
    if not close(expected, torch.zeros_like(expected)):
        for k in _MULTIPLES:
            if close(actual, k * expected):
                return D((f"{what} is {k} times the expected gradient: .grad accumulated over {k} "
                        "backward() calls. Zero it (or set it to None) between them."), "grad_accumulated")
        if close(actual, torch.zeros_like(expected)):
            return D((f"{what} is all zeros: was .grad zeroed after backward() instead of before, "
                    "or was the tensor cut out of the graph (detach(), .data, no_grad)?"), "all_zeros")
        if close(actual, -expected):
            return D(f"{what} has the wrong sign everywhere: check for a flipped minus sign.", "wrong_sign")
        if expected.dim() == 2 and close(actual.mT, expected) and expected.shape == actual.mT.shape:
            return D(f"{what} is the transpose of the expected one: rows and columns are swapped.", "transposed")
    error, index = largest_difference(actual, expected)
    where = f" at index {index}" if index else ""
    return D(f"{what} differs from PyTorch's result: the largest error is {error:.3g}{where}.", "wrong_value")


def diagnose_gradient(expected: torch.Tensor, actual, what: str = "the gradient",
                      tensor: torch.Tensor | None = None, stale: torch.Tensor | None = None) -> str | None:
    """None when ``actual`` matches; otherwise one sentence naming the likely mistake.

    ``tensor`` is the tensor whose ``.grad`` was read, when there is one: a None gradient is
    explained by its flags (never backpropagated, not a leaf, not requiring grad).
    """
    if actual is None and tensor is not None:
        if not tensor.requires_grad:
            return D(f"{what} is None because the tensor does not require grad: set requires_grad=True.", "grad_none_no_requires_grad")
        if not tensor.is_leaf:
            return D((f"{what} is None: the tensor is not a leaf, and autograd only keeps .grad of "
                    "leaves. Call .retain_grad() on it before backward()."), "grad_none_not_leaf")
        return D(f"{what} is None: .grad stays None until backward() runs. Did you call backward()?", "grad_none_no_backward")
    return diagnose_tensor(expected, actual, what) or diagnose_values(expected, actual, what, stale)
