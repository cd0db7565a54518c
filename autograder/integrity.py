"""Refuse to grade with tools the submission has replaced.

A student cell runs in the same kernel as the hidden tests, so it could rebind
``torch.allclose`` or a course check to something that always agrees. Everything the grader
trusts must still be the object its own package defined.
"""
import sys

import torch
import torch.autograd.functional  # noqa: F401  (so its functions are in the list below)

_TRUSTED_PACKAGES = ("course", "autograder")

# The PyTorch entry points that checks use as the oracle or to compare.
TORCH_ORACLE = [
    (torch, "allclose"), (torch, "isclose"), (torch, "equal"), (torch, "zeros_like"),
    (torch, "is_complex"), (torch, "isnan"), (torch.autograd, "grad"), (torch.autograd, "backward"),
    (torch.Tensor, "backward"), (torch.autograd.functional, "jacobian"),
]


def _from_notebook(obj) -> bool:
    """Code a notebook cell defined: its module is __main__ or its file is a kernel cell."""
    if getattr(obj, "__module__", None) == "__main__":
        return True
    code = getattr(obj, "__code__", None)
    return code is not None and "ipykernel" in code.co_filename


def _functions_of(value):
    """The callables an attribute holds: itself, or those in its class or instance dict."""
    if callable(value) and not isinstance(value, type):
        yield value
    holder = getattr(value, "__dict__", None)
    if isinstance(holder, dict) or isinstance(value, type):
        for inner in dict(vars(value)).values():
            if callable(inner):
                yield inner


def tampered() -> list[str]:
    """Dotted names of trusted functions that now point at code a notebook cell wrote."""
    found = [f"{getattr(owner, '__name__', owner)}.{attr}" for owner, attr in TORCH_ORACLE
             if _from_notebook(getattr(owner, attr, None))
             or not callable(getattr(owner, attr, None))]
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in _TRUSTED_PACKAGES or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if any(_from_notebook(f) for f in _functions_of(value)):
                found.append(f"{name}.{attr}")
    return found
