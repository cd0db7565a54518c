"""`grads_with_intermediate(x)`: the gradient of a leaf and of an intermediate result, from one backward pass."""
import warnings

import torch
from torch.overrides import TorchFunctionMode

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, diagnose_swapped
from ...checks.mistakes import Mistake, require
from ...checks.read_back import pair
from ...checks.technique import counting, forbidden, grad_not_left, inputs_kept, snapshot
from ...exercise import Exercise


def inputs(rng):
    """x of 3 to 6 elements, in one dimension or two (rows 1 to 4), either dtype. The text allows any x, so two
    entries are large, 750 to 1000, one of each sign: tanh is 1 and -1 there, and a tanh written with exp
    overflows (exp(750) is inf even in float64). The others stay in [-2, 2], where both paths of x into y carry
    a gradient."""
    shape = ((rand.integer(rng, 3, 6),), (rand.integer(rng, 1, 4), rand.integer(rng, 3, 5)))[rand.integer(rng, 0, 1)]
    x = rand.tensor(rng, shape, rand.float_dtype(rng))
    first = rand.integer(rng, 0, x.numel() - 1)
    second = (first + rand.integer(rng, 1, x.numel() - 1)) % x.numel()
    for where, sign in ((first, 1.0), (second, -1.0)):
        x.view(-1)[where] = sign * float(rand.tensor(rng, (), torch.float64, 750.0, 1000.0))
    return {"x": x}


class _TanhOutputs(TorchFunctionMode):
    """Every tensor torch.tanh (or .tanh()) returned: the answer's h, whose .grad dy_dh is read from; and each
    retain_grad() call: on which tensor, and whether a backward() had already run."""

    def __init__(self):
        super().__init__()
        self.outputs, self.retained, self.backward_ran = [], [], False

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name == "retain_grad" and args and isinstance(args[0], torch.Tensor):
            target = args[0]
            self.retained.append({"on_h": any(target is h for h in self.outputs), "on_leaf": target.is_leaf,
                                  "after_backward": self.backward_ran})
        out = func(*args, **(kwargs or {}))
        if name == "tanh" and isinstance(out, torch.Tensor):
            self.outputs.append(out)
        if name == "backward":
            self.backward_ran = True
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
    grad_not_left([x], ["x"])
    # None: h was not made by tanh, so the check cannot tell; else whether some h kept its gradient
    # (retain_grad() or backward(inputs=...)) or had a hook of the answer's to see it
    kept = None if not tanh.outputs else any(h.retains_grad or h._backward_hooks or _grad_quietly(h) is not None
                                             for h in tanh.outputs)
    return {"result": got, "backward_calls": len(ran), "h_grad_kept": kept, "retained": tanh.retained}


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


RETAINED_AFTER = ("h.retain_grad() was called after backward(): it keeps only the gradients computed after it, so "
                  "h.grad stayed None. Call h.retain_grad() right after computing h, before backward().")


RETAINED_ELSEWHERE = ("retain_grad() was called on {what}, not on h = tanh(x): dy_dh is what lands in h.grad, and "
                      "only h.retain_grad() keeps it. Call it on h itself, before backward().")


def _retained_wrong(retained: list) -> None:
    """dy_dh missing or wrong after retain_grad() calls: said when none of them was on h before backward()."""
    if not retained or any(r["on_h"] and not r["after_backward"] for r in retained):
        return
    if any(r["on_h"] for r in retained):
        raise Mistake(RETAINED_AFTER, "retained_after_backward")
    leaf = any(r["on_leaf"] for r in retained)
    raise Mistake(RETAINED_ELSEWHERE.format(what="the copy of x, a leaf (whose .grad is kept anyway)" if leaf else
                                            "another tensor (y, or a result computed from h such as h**2)"),
                  "retained_wrong_tensor")


def _overflowed(result, x: torch.Tensor) -> None:
    """NaN or inf only where x is large: a tanh built from exp, whose exp(x) overflows to inf there."""
    large = x.abs() > 20
    for got in result:
        if not isinstance(got, torch.Tensor) or got.shape != x.shape or got.is_complex() or not large.any():
            continue
        bad = ~torch.isfinite(got.detach())
        if bad.any() and not (bad & ~large).any():
            where = float(x[bad][0])
            raise Mistake(f"your result is NaN (or inf) where x is large (x = {where:g} here), and finite elsewhere: "
                          "a tanh written with exp overflows there (exp of a large number is inf, and inf / inf or "
                          "inf * 0 is NaN). The text allows any x: use torch.tanh(x), which PyTorch computes without "
                          "overflow for every x.", "overflow")


def judge(seen, expected, inputs):
    dy_dx, dy_dh = pair(seen["result"], "dy_dx, dy_dh")
    calls = seen["backward_calls"]
    _overflowed(seen["result"], inputs["x"])
    require(diagnose_swapped((expected["dy_dx"], expected["dy_dh"]), seen["result"], ("dy_dx", "dy_dh")))
    if dy_dh is None and calls:
        _retained_wrong(seen.get("retained", []))
        raise Mistake("dy_dh is None: h is not a leaf, so autograd does not keep its gradient. "
                      "Call h.retain_grad() before backward().", "grad_none_not_leaf")
    if diagnose_gradient(expected["dy_dh"], dy_dh):
        _retained_wrong(seen.get("retained", []))
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
