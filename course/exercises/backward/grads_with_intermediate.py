"""`grads_with_intermediate(x)`: the gradient of a leaf and of an intermediate result, from one backward pass."""
import warnings

import torch
from torch.overrides import TorchFunctionMode

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, diagnose_swapped
from ...checks.mistakes import Mistake, require
from ...checks.read_back import pair
from ...checks.technique import counting, forbidden, inputs_kept, snapshot
from ...exercise import Exercise


def inputs(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))}


class _TanhOutputs(TorchFunctionMode):
    """Every tensor torch.tanh (or .tanh()) returned: the answer's h, whose .grad dy_dh is read from."""

    def __init__(self):
        super().__init__()
        self.outputs = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if getattr(func, "__name__", "") == "tanh" and isinstance(out, torch.Tensor):
            self.outputs.append(out)
        return out


def _grad_quietly(t: torch.Tensor):
    """t.grad without the warning PyTorch gives for a non-leaf's (backward(inputs=[h]) fills it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.grad


def call(answer, inputs):
    x = inputs["x"]
    before = snapshot(x)
    with forbidden(torch.autograd, "grad", "get both gradients from one backward(): read dy_dh from h.grad, "
                   "not from torch.autograd.grad."), counting(torch.autograd, "backward") as ran, \
            _TanhOutputs() as tanh:
        got = answer(x)
    inputs_kept(before, [x], ["x"])
    # None: h was not made by tanh, so the check cannot tell; else whether some h kept its gradient
    # (retain_grad() or backward(inputs=...)) or had a hook of the answer's to see it
    kept = None if not tanh.outputs else any(h.retains_grad or h._backward_hooks or _grad_quietly(h) is not None
                                             for h in tanh.outputs)
    return {"result": got, "backward_calls": len(ran), "h_grad_kept": kept}


# y = sum(h**2 * x) reaches x along two paths: what dy_dx is when one of them is missing (the reference's key).
ONE_PATH_MISSING = (
    ("dy_dx_direct_only", "dy_dx holds only the direct term of y = sum(h**2 * x), h**2, as if h did not depend on "
                          "x: no gradient came back through h = tanh(x). Was h cut from the copy of x (a .detach() "
                          "making it a leaf of its own) or computed from the x you were given? Compute h from the "
                          "copy, keep it in the graph, and keep its gradient with h.retain_grad().", "h_cut_off"),
    ("dy_dx_through_h_only", "dy_dx holds only the path through h: the direct term of x in y = sum(h**2 * x) is "
                             "missing, so the x that multiplies h**2 is not the copy that requires grad (the x you "
                             "were given?). Use the copy in both places.", "x_not_the_copy"),
)


def _one_path_missing(expected, dy_dx) -> None:
    for key, why, kind in ONE_PATH_MISSING:
        if key in expected and isinstance(dy_dx, torch.Tensor) and dy_dx.shape == expected[key].shape and \
                not dy_dx.is_complex() and close(dy_dx, expected[key]) and not close(expected["dy_dx"], expected[key]):
            raise Mistake(why, kind)


def judge(seen, expected, inputs):
    dy_dx, dy_dh = pair(seen["result"], "dy_dx, dy_dh")
    calls = seen["backward_calls"]
    require(diagnose_swapped((expected["dy_dx"], expected["dy_dh"]), seen["result"], ("dy_dx", "dy_dh")))
    if dy_dh is None and calls:
        raise Mistake("dy_dh is None: h is not a leaf, so autograd does not keep its gradient. "
                      "Call h.retain_grad() before backward().", "grad_none_not_leaf")
    n = expected["dy_dx"].numel()
    if n > 1 and all(isinstance(g, torch.Tensor) and g.shape == want.shape and not g.is_complex() and
                     close(g * n, want) for g, want in ((dy_dx, expected["dy_dx"]), (dy_dh, expected["dy_dh"]))):
        raise Mistake(f"dy_dx and dy_dh are both 1/{n} of the expected gradients: y is the sum over i, not the "
                      "mean (a mean divides y, and so every gradient, by the number of elements).", "mean_for_sum")
    _one_path_missing(expected, dy_dx)
    require(diagnose_gradient(expected["dy_dx"], dy_dx, "dy_dx", backward_calls=calls))
    require(diagnose_gradient(expected["dy_dh"], dy_dh, "dy_dh", backward_calls=calls))
    if calls != 1:
        raise Mistake(f"backward() ran {calls} times: the exercise asks for both gradients from one call to "
                      "backward(). Keep h's gradient with h.retain_grad() and read x.grad and h.grad after "
                      "that one call.", "several_backward_calls")
    if seen["h_grad_kept"] is False:
        raise Mistake("dy_dh is right, but after your backward() h.grad is None, so dy_dh was worked out some other "
                      "way: the exercise asks for what backward() leaves in h.grad. h is not a leaf, so ask "
                      "autograd to keep its gradient before that backward().", "dy_dh_not_from_grad")


HINTS = [
    "h is not a leaf, so autograd does not keep its .grad unless you ask it to.",
    "The method that keeps a non-leaf's gradient must be called before backward() runs.",
    "After one backward() from y, read .grad of both the copy of x and h.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
