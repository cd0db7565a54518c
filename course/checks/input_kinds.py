"""The kinds of input a seed draws, so the self-check's stored seeds can cover every kind the grader draws.

The grader judges an answer on fresh seeds; the self-check can compare only with values stored at
build time, for a few seeds, since the references that compute them stay with the grader. An answer
right for one shape or dtype only (x flattened, a mean over a hard-coded 5, ``view(-1)`` on a
gradient) would say Correct on one stored seed and lose its points at grading. So the build stores
a *covering* set of seeds: together they draw every feature that the exercise's ``inputs`` draws on
any seed (``autograder/authoring/expectations.py`` picks them).

A feature is one fact about one place in the inputs (``cases[1].x``, ``model.0.weight``): a tensor's
dtype, dimensions (of one element, or several) and autograd role, taken together; each of its sizes;
a ``.grad`` present or None; a layer's type and mode; an optimizer's type; an empty or one-item list;
a whole number up to 9 (a count or an index an answer could hard-code); a bool; an edge case the
exercise declares (``Exercise(..., edges=...)``). Features are covered one by one, not in every
combination: each dtype with each number of dimensions of the same tensor, but not every size of
one tensor with every size of another.
"""
import math

import torch
from torch import nn

SMALL_WHOLE = 9  # whole numbers up to this are kept as they are: counts and indices an answer may hard-code


def features(inputs, edges=None) -> frozenset:
    """Every (place, what, value) the inputs show, plus the exercise's declared edge cases."""
    found: set = set()
    _walk(inputs, "", found)
    for edge in (edges(inputs) if edges else ()):
        found.add(("", "edge", str(edge)))
    return frozenset(found)


def _tensor_kind(t: torch.Tensor) -> str:
    dims = ", ".join("1" if s == 1 else "0" if s == 0 else "n" for s in t.shape)
    role = ("a result" if t.grad_fn is not None else "a leaf that requires grad") if t.requires_grad else "plain"
    return f"{str(t.dtype).removeprefix('torch.')} ({dims}) {role}"


def _walk(value, place: str, found: set) -> None:
    if isinstance(value, torch.Tensor):
        found.add((place, "tensor", _tensor_kind(value)))
        found.update((place, f"size {i}", int(s)) for i, s in enumerate(value.shape))
        if value.grad_fn is None and (value.is_floating_point() or value.is_complex()) and value.numel() \
                and not bool(torch.isfinite(value).all()):
            found.add((place, "values", "not finite"))  # an overflowed .grad, say: drawn, not computed
        if value.grad_fn is None and value.requires_grad:  # a leaf: only leaves keep a .grad
            if value.grad is None:
                found.add((f"{place}.grad", "tensor", "None"))
            else:
                _walk(value.grad, f"{place}.grad", found)
    elif isinstance(value, nn.Module):
        found.add((place, "module", f"{type(value).__name__} {'train' if value.training else 'eval'}"))
        for name, parameter in value.named_parameters(recurse=False):
            _walk(parameter, f"{place}.{name}", found)
        for name, child in value.named_children():
            _walk(child, f"{place}.{name}", found)
    elif isinstance(value, torch.optim.Optimizer):
        found.add((place, "optimizer", type(value).__name__))
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk(item, f"{place}.{key}" if place else str(key), found)
    elif isinstance(value, (list, tuple)):
        found.add((place, "items", "none" if not value else "one" if len(value) == 1 else "several"))
        if value and all(isinstance(item, (bool, int, float)) for item in value):
            found.update({(place, "numbers", _numbers(value)), (place, "size 0", len(value))})  # data, not places
        else:
            for i, item in enumerate(value):
                _walk(item, f"{place}[{i}]", found)
    elif isinstance(value, bool) or value is None:
        found.add((place, "value", value))
    elif isinstance(value, int):
        found.add((place, "value", value if 0 <= value <= SMALL_WHOLE else "a whole number"))
    elif isinstance(value, float):
        found.add((place, "value", "zero" if value == 0 else "a number" if math.isfinite(value) else "not finite"))
    elif isinstance(value, str):
        if value.isidentifier():  # a name (a loss's, a case's); a text written out is not a kind
            found.add((place, "name", value))
    elif callable(value):
        found.add((place, "function", getattr(value, "__name__", type(value).__name__)))
    else:
        found.add((place, "type", type(value).__name__))


def _numbers(values) -> str:
    kinds = {"bools" if isinstance(v, bool) else "whole numbers" if isinstance(v, int) else "floats" for v in values}
    return " and ".join(sorted(kinds))


def is_size(feature: tuple) -> bool:
    return feature[1].startswith("size ")


def nearest(wanted: frozenset, stored: dict) -> int:
    """The stored seed whose inputs are most like ``wanted``'s: the most kinds in common (sizes aside),
    then the most sizes; the first such seed in ``stored``'s order."""
    def likeness(seed):
        shared = wanted & stored[seed]
        return (sum(not is_size(f) for f in shared), sum(is_size(f) for f in shared))
    best = max(likeness(seed) for seed in stored)
    return next(seed for seed in stored if likeness(seed) == best)


def same_kinds(a: frozenset, b: frozenset) -> bool:
    """Whether two seeds draw the same kinds of input (their sizes may differ)."""
    return {f for f in a if not is_size(f)} == {f for f in b if not is_size(f)}


def describe(inputs) -> str:
    """The inputs in a few words, for a message: "x: float32 of shape (4, 5)"."""
    parts = []
    for key, value in (inputs.items() if isinstance(inputs, dict) else ()):
        if isinstance(value, torch.Tensor):
            parts.append(f"{key}: {str(value.dtype).removeprefix('torch.')} of shape {tuple(value.shape)}")
        elif isinstance(value, nn.Module):
            shapes = ", ".join(str(tuple(p.shape)) for p in value.parameters())
            parts.append(f"{key}: a {type(value).__name__} with parameters of shapes {shapes}")
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, torch.Tensor) for v in value):
            parts.append(f"{key}: {len(value)} tensors of shapes {', '.join(str(tuple(v.shape)) for v in value)}")
    return "; ".join(parts)
