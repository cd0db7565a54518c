"""Lesson 2 exercises: backward() and gradients.

Each exercise draws its inputs from a seed, runs the answer in the student's kernel (``call``) and
judges what it saw against expected values computed by the grader with real PyTorch
(``autograder/grading/judging/references/backward.py``); nothing here holds an answer.

Where an exercise's text states how to compute something ("from one call to backward()",
"computing h only once", "by hand"), ``call`` watches the answer run (calls counted, torch
functions recorded) and the check fails with that rule's message even when the numbers are right.
"""
import warnings
from contextlib import ExitStack, contextmanager

import torch
from torch.overrides import TorchFunctionMode

from ..checks import random_inputs as rand
from ..checks.compare import close
from ..checks.diagnose import describe_value, diagnose_aliased_rows, diagnose_gradient, diagnose_swapped
from ..checks.mistakes import Mistake, require
from ..checks.technique import (NO_AUTOGRAD_GRAD, TorchCalls, counting, data_watched, forbidden, inputs_kept,
                                snapshot)
from ..exercise import Exercise
from ..lesson_footer import close_lesson

SCALAR_FUNCTIONS = [
    ("sum of sin(x) * x**2", lambda t: (torch.sin(t) * t**2).sum()),
    ("mean of exp(-x**2)", lambda t: torch.exp(-t**2).mean()),
    ("log-sum-exp", lambda t: torch.logsumexp(t.reshape(-1), 0)),
]

VECTOR_FUNCTIONS = [
    ("sin(x) * x", lambda t: torch.sin(t) * t),
    ("cumsum(x)**2", lambda t: torch.cumsum(t, 0) ** 2),
    ("[sum, sum of squares, product]", lambda t: torch.stack([t.sum(), (t**2).sum(), t.prod()])),
]

JACOBIAN_FUNCTIONS = [
    ("x * x.sum()", lambda t: t * t.sum()),
    ("[sin(x0*x1), x0 + x1**2, sum(x**3)]", lambda t: torch.stack([torch.sin(t[0] * t[1]), t[0] + t[1] ** 2,
                                                                  (t**3).sum()])),
    ("softmax(x)", lambda t: torch.softmax(t, 0)),
]

# Scalar functions with Hessians that are not zero, diagonal for the first, full for the others.
HVP_FUNCTIONS = [
    ("sum of sin(x) * x**2", lambda t: (torch.sin(t) * t**2).sum()),
    ("log-sum-exp", lambda t: torch.logsumexp(t, 0)),
    ("(sum of x**2)**2", lambda t: (t**2).sum() ** 2),
]


class _WhereEvaluated:
    """f as the answer gets it, noting where it was evaluated: at x, just beside x, or somewhere else.

    An answer that evaluates f at shifted points, (f(x + h) - f(x - h)) / 2h, gets the numbers right
    without autograd: the exercise's rule ("with backward()") is broken even though the values pass.
    Points far from x are no finite difference: a tensor kept from an earlier call, say, which the
    judge names only when the result is wrong.
    """

    def __init__(self, f, x: torch.Tensor):
        self.f, self.x, self.elsewhere, self.far, self.given = f, x.detach().clone(), False, False, []
        self.stale = False  # f got a leaf whose .grad already held a gradient: backward() will add to it
        self.outputs = []  # what f returned, to tell its value returned in place of a gradient

    def __call__(self, t, *args, **kwargs):
        if not isinstance(t, torch.Tensor) or t.is_complex():
            self.elsewhere = True  # a complex step, or something that is not a tensor at all
        elif t.numel() != self.x.numel():
            self.far = True
        elif not self._same_points(t.reshape(self.x.shape)):  # x reshaped is still x
            if self._beside(t.reshape(self.x.shape)):
                self.elsewhere = True
            else:
                self.far = True
        if isinstance(t, torch.Tensor):
            self.stale |= bool(t.is_leaf and t.requires_grad and t.grad is not None)
            self.given.append(t)
        out = self.f(t, *args, **kwargs)
        self.outputs.append(out)
        return out

    def returned_value(self, got) -> bool:
        """Whether the answer returned f's value itself (or a copy of it) where a gradient was asked for."""
        return isinstance(got, torch.Tensor) and any(
            got is out or (isinstance(out, torch.Tensor) and got.shape == out.shape and got.dtype == out.dtype
                           and torch.equal(got.detach(), out.detach())) for out in self.outputs)

    def _same_points(self, t: torch.Tensor) -> bool:
        return torch.equal(t.detach().to(self.x.dtype), self.x) or self._converted(t)

    def _beside(self, t: torch.Tensor) -> bool:
        """Within a step of x: what a finite difference evaluates (x itself is excluded before)."""
        if not t.is_floating_point():
            return False
        x = self.x.to(t.dtype)
        return bool(((t.detach() - x).abs() <= 0.05 * (1 + x.abs())).all())

    def _converted(self, t: torch.Tensor) -> bool:
        """x itself in another floating dtype (a copy through .tolist(), say): the judge names the dtype."""
        return t.is_floating_point() and t.dtype != self.x.dtype and torch.equal(t.detach(), self.x.to(t.dtype))

    def grad_filled(self) -> bool:
        """Whether backward() filled the .grad of a leaf f was called on (the answer's copy of x)."""
        return any(t.is_leaf and t.grad is not None for t in self.given)

    def no_graph(self, given_x: torch.Tensor, call: str = "backward()",
                 then: str = "read that copy's .grad") -> str | None:
        """Why backward() found no graph, when f was only ever called on tensors that do not require grad.

        PyTorch's error says only that some tensor has no grad_fn; which tensor f got tells the slip:
        the caller's own x (the copy was made but not used), or a copy that never required grad.
        """
        if not self.given or any(t.requires_grad for t in self.given):
            return None
        if any(t is given_x for t in self.given):
            return (f"{call} found no graph: f was called on the x you were given, which does not require "
                    f"grad. Call f on a copy of x that requires grad, and {then}.")
        return (f"{call} found no graph: f was called on a tensor that does not require grad (a copy made "
                "without .requires_grad_(True), or a .detach() or .data of one). Call f on a copy of x that "
                "requires grad.")


FINITE_DIFFERENCE = ("your answer evaluates f at points other than x, as a finite difference "
                     "(f(x + h) - f(x - h)) / 2h does: that estimates {what} instead of letting autograd "
                     "compute it. {how}")


def _finite_difference(seen, what: str, how: str) -> None:
    if any(seen["evaluated_elsewhere"]):
        raise Mistake(FINITE_DIFFERENCE.format(what=what, how=how), "finite_difference")


FAR_FROM_X = ("f was called on a tensor that is not the x of this call (other values, or another shape): one "
              "kept from an earlier call, or x changed before f saw it? f's derivative is wanted at x itself. {how}")


def _far_from_x(seen, index: int, wrong, how: str) -> None:
    """A wrong result from f evaluated far from x: said only when wrong, since f may be called for other reasons."""
    if wrong and seen["evaluated_far"][index]:
        raise Mistake(FAR_FROM_X.format(how=how), "f_not_at_x")


def _pair(got, names: str):
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        raise Mistake(f"return a pair ({names}): your function returned {describe_value(got)}.", "not_a_pair")
    return got


def _watching_backward():
    """Count backward() and torch.autograd.grad calls: ``calls["backward"]``, ``calls["grad"]``."""
    stack = ExitStack()
    calls = {"backward": stack.enter_context(counting(torch.autograd, "backward")),
             "grad": stack.enter_context(counting(torch.autograd, "grad"))}
    return stack, calls


# --- grad_via_backward ------------------------------------------------------------------------

def _x_any_shape(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))}


STALE_LEAF = ("f was called on a leaf whose .grad already held a gradient from before: a tensor kept from an "
              "earlier call (in a global, a default argument or an attribute)? backward() adds into .grad, so "
              "{effect}. Make a new copy of x in every call, x.detach().clone().requires_grad_(True), and call f "
              "on it.")

ITEM_OF_GRADIENT = ("your code turned a tensor of several elements into one Python number (.item() works only for "
                    "a tensor of one element): the gradient has one entry per element of x, so return it as the "
                    "tensor .grad holds.")


def _grad_via_backward_call(answer, inputs):
    x, seen, calls, elsewhere, far, filled, copies, stale, values = inputs["x"], [], [], [], [], [], [], [], []
    before = snapshot(x)
    for _, f in SCALAR_FUNCTIONS:
        watched = _WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            try:
                seen.append(answer(watched, x))
            except RuntimeError as error:
                _explain_grad_via_backward_error(error, watched, x)
                raise
        inputs_kept(before, [x], ["x"])
        calls.append(len(ran))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
        filled.append(seen[-1] is None and watched.grad_filled())
        copies.append(any(seen[-1] is t for t in watched.given))
        stale.append(watched.stale)
        values.append(watched.returned_value(seen[-1]))
    return {"grads": seen, "backward_calls": calls, "evaluated_elsewhere": elsewhere, "evaluated_far": far,
            "none_but_filled": filled, "returned_the_copy": copies, "stale_leaf": stale, "returned_value": values}


def _explain_grad_via_backward_error(error: RuntimeError, watched: _WhereEvaluated, x: torch.Tensor) -> None:
    """What an error raised inside the answer says about it, in this exercise's terms (else PyTorch's own)."""
    why = "does not require grad and does not have a grad_fn" in str(error) and watched.no_graph(x)
    if why:
        raise Mistake(why, "f_not_on_copy") from None
    if watched.stale and ("shape" in str(error) or "size of tensor" in str(error)):
        raise Mistake(STALE_LEAF.format(effect="here the new gradient was added to one of another shape (hence "
                                        "PyTorch's size error)"), "stale_leaf") from None
    if "cannot be converted to Scalar" in str(error):
        raise Mistake(ITEM_OF_GRADIENT, "item_of_gradient") from None


GRAD_HOW = "Call f once, on a copy of x that requires grad, and let backward() fill the copy's .grad."


def _grad_via_backward_judge(seen, expected, inputs):
    _finite_difference(seen, "the gradient", GRAD_HOW)
    if any(seen["none_but_filled"]):
        raise Mistake("your function returned None, yet backward() did fill the .grad of the copy you called f "
                      "on. backward() itself returns None (it stores the gradient instead of returning it): "
                      "return the gradient, not what backward() returns.", "returned_none")
    if any(seen["returned_the_copy"]):
        raise Mistake("your function returned the copy of x that f was called on, not its gradient: backward() "
                      "stores the gradient in that copy's .grad.", "returned_input")
    if any(seen.get("returned_value", ())):
        raise Mistake("your function returned f's value f(x), not its gradient: call backward() on that value, "
                      "then return the .grad of the copy of x that f was called on.", "returned_value")
    for i, ((description, _), got, want, calls) in enumerate(zip(
            SCALAR_FUNCTIONS, seen["grads"], expected["grads"], seen["backward_calls"], strict=True)):
        wrong = diagnose_gradient(want, got, f"the gradient of the {description}", backward_calls=calls)
        if wrong and seen["stale_leaf"][i]:
            raise Mistake(STALE_LEAF.format(effect="the result holds the old gradient too"), "stale_leaf")
        _far_from_x(seen, i, wrong, GRAD_HOW)
        require(wrong)
        if calls == 0:
            raise Mistake(f"the gradient of the {description} is right, but backward() never ran: the exercise "
                          "asks for the gradient found with backward().", "no_backward")


# --- vjp ----------------------------------------------------------------------------------------

def _vjp_inputs(rng):
    x = rand.tensor(rng, (rand.integer(rng, 2, 6),), rand.float_dtype(rng))
    return {"x": x, "vs": [rand.tensor(rng, f(x).shape, x.dtype) for _, f in VECTOR_FUNCTIONS]}


def _weights_kept(before: torch.Tensor, v: torch.Tensor) -> None:
    """v weights the outputs and is never differentiated: the generic advice (a copy that requires grad) does not fit."""
    if v.requires_grad != before.requires_grad:
        raise Mistake("your code changed `v.requires_grad` on the tensor it was given: v only weights the outputs, "
                      "and nothing is differentiated with respect to it, so it needs no requires_grad. Leave v as "
                      "it was given.", "input_changed")


def _vjp_call(answer, inputs):
    x, seen, calls, weighted, elsewhere, far = inputs["x"], [], [], [], [], []
    for (_, f), v in zip(VECTOR_FUNCTIONS, inputs["vs"]):
        before = snapshot(x, v)
        watched = _WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            seen.append(answer(watched, x, v))
        _weights_kept(before[1], v)
        inputs_kept(before, [x, v], ["x", "v"])
        calls.append(len(ran))
        weighted.append(any(call.get("grad_tensors") is not None for call in ran))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
    return {"vjps": seen, "backward_calls": calls, "gradient_passed": weighted, "evaluated_elsewhere": elsewhere,
            "evaluated_far": far}


VJP_HOW = "Call f once, on a copy of x that requires grad, and pass v to backward()."


def _vjp_judge(seen, expected, inputs):
    _finite_difference(seen, "v^T J", VJP_HOW)
    for i, ((description, _), got, want, from_sum, calls) in enumerate(zip(
            VECTOR_FUNCTIONS, seen["vjps"], expected["vjps"], expected["sum_grads"], seen["backward_calls"],
            strict=True)):
        if isinstance(got, torch.Tensor) and got.shape == want.shape and \
                diagnose_gradient(from_sum, got) is None and diagnose_gradient(want, got) is not None:
            raise Mistake(f"for y = {description}, your result is the gradient of y.sum(), as if v were all "
                          "ones: pass the vector as backward(gradient=v).", "v_ignored")
        wrong = diagnose_gradient(want, got, f"v^T J for y = {description}", backward_calls=calls)
        _far_from_x(seen, i, wrong, VJP_HOW)
        require(wrong)
    if not all(seen["gradient_passed"]):
        raise Mistake("your v^T J is right, but backward() was never given gradient=v: the exercise is about "
                      "that argument. (y * v).sum().backward() gives the same numbers; here, pass v to "
                      "backward() itself.", "gradient_arg_unused")


# --- grads_with_intermediate --------------------------------------------------------------------

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


def _grads_with_intermediate_call(answer, inputs):
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


def _grads_with_intermediate_judge(seen, expected, inputs):
    dy_dx, dy_dh = _pair(seen["result"], "dy_dx, dy_dh")
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


# --- two_losses ---------------------------------------------------------------------------------

# The generic meaning of this error also offers a new forward pass, which this exercise forbids.
FREED_BETWEEN_LOSSES = ("the second backward() found the graph freed (RuntimeError: Trying to backward through "
                        "the graph a second time): the first backward() frees it. h is computed only once here, "
                        "so keep the graph for the second call: pass retain_graph=True to the first backward().")

class _SinWatch(TorchCalls):
    """The torch calls, noting whether sin was applied to the very x the answer was given (no copy)."""

    def __init__(self, given: torch.Tensor):
        super().__init__()
        self.given, self.on_given = given, False

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") == "sin" and args and args[0] is self.given:
            self.on_given = True
        return super().__torch_function__(func, types, args, kwargs)


H_FROM_GIVEN_X = ("backward() found no graph: h was computed from the x you were given, which does not require "
                  "grad. Compute h from a copy of x that requires grad, and read that copy's .grad.")


def _two_losses_call(answer, inputs):
    x = inputs["x"]
    before = snapshot(x)
    stack, ran = _watching_backward()
    try:
        with _SinWatch(x) as torch_calls, stack, data_watched() as data_used:
            got = answer(x)
    except RuntimeError as error:
        if torch_calls.on_given and "does not require grad and does not have a grad_fn" in str(error):
            raise Mistake(H_FROM_GIVEN_X, "f_not_on_copy") from None
        if "backward through the graph a second time" not in str(error):
            raise
        raise Mistake(FREED_BETWEEN_LOSSES, "graph_freed") from None
    inputs_kept(before, [x], ["x"])
    forward_passes = torch_calls.count("sin")
    if forward_passes > 1:
        raise Mistake(f"h was computed {forward_passes} times (torch.sin ran {forward_passes} times): the "
                      "exercise asks for one forward pass. Compute h once, then call backward() from each "
                      "loss, keeping the graph with retain_graph=True for the first.", "forward_repeated")
    same_object = isinstance(got, (tuple, list)) and len(got) == 2 and got[0] is not None and got[0] is got[1]
    return {"result": got, "same_object": same_object, "data_used": bool(data_used),
            "differentiations": len(ran["backward"]) + len(ran["grad"])}


DATA_CUTS_H = ("{which} is wrong, and your code used .data: .data is the tensor's values with no history, so what "
               "is computed from it is cut off the graph and no gradient flows back through it. Compute h from "
               "the copy of x itself.")


def _two_losses_judge(seen, expected, inputs):
    g1, g2 = _pair(seen["result"], "grad of loss1, grad of loss2")
    if seen["differentiations"] == 1 and (diagnose_gradient(expected["loss1"], g1) or
                                          diagnose_gradient(expected["loss2"], g2)):
        raise Mistake("backward() ran only once, so .grad holds one gradient: a single backward() from "
                      "loss1 + loss2 gives the gradient of the sum, not each loss's own. Call backward() from "
                      "each loss, keeping the graph for the second.", "one_backward")
    if seen["same_object"]:
        raise Mistake("both gradients are the same tensor object: backward() adds into .grad in place, "
                      "so keep a .clone() of the first one before the second backward().", "grad_aliased")
    require(diagnose_swapped((expected["loss1"], expected["loss2"]), seen["result"],
                             ("the gradient of loss1", "the gradient of loss2")))
    both = expected["loss1"] + expected["loss2"]
    if isinstance(g1, torch.Tensor) and g1.shape == both.shape and not g1.is_complex() and close(g1, both) \
            and not close(expected["loss1"], both):
        raise Mistake("the gradient of loss1 you returned holds both gradients added up: it was read from "
                      "x.grad after the second backward() had added into it (x.grad itself, kept without a "
                      "copy, changes in place: section 4). Keep x.grad.clone() right after the first "
                      "backward().", "grad_aliased")
    for got, want, which in ((g1, expected["loss1"], "the gradient of loss1"),
                             (g2, expected["loss2"], "the gradient of loss2")):
        if seen.get("data_used") and diagnose_gradient(want, got, which):
            raise Mistake(DATA_CUTS_H.format(which=which), "used_data")
    require(diagnose_gradient(expected["loss1"], g1, "the gradient of loss1"))
    _sum_for_mean(g2, expected["loss2"])
    require(diagnose_gradient(expected["loss2"], g2, "the gradient of loss2", stale=expected["loss1"]))


def _sum_for_mean(got, want: torch.Tensor) -> None:
    """n times loss2's gradient, for x of n elements: a .sum() where loss2 takes the mean (any n, not only 2 to 5)."""
    n = want.numel()
    if n > 1 and isinstance(got, torch.Tensor) and got.shape == want.shape and not got.is_complex() and \
            close(got, n * want) and not close(want, torch.zeros_like(want)):
        raise Mistake(f"the gradient of loss2 is {n} times the expected one, and x has {n} elements: loss2 = "
                      "(h**2).mean() divides by them, and a .sum() does not.", "sum_for_mean")


# --- jacobian_rows ------------------------------------------------------------------------------

def _jacobian_inputs(rng):
    """x of 2, 4 or 5 elements, never 3: the second function has 3 outputs, so every trial has an f whose
    outputs are not as many as x's elements, and a loop over x's elements cannot pass it."""
    n = rand.integer(rng, 2, 5)
    return {"x": rand.tensor(rng, (4 if n == 3 else n,), torch.float64)}


def _jacobian_rows_call(answer, inputs):
    x, seen, calls, elsewhere, far = inputs["x"], [], [], [], []
    before = snapshot(x)
    for _, f in JACOBIAN_FUNCTIONS:
        watched = _WhereEvaluated(f, x)
        with forbidden(torch.autograd.functional, "jacobian",
                       "build the Jacobian yourself, one row per output element, not with jacobian()."):
            stack, ran = _watching_backward()
            with stack:
                try:
                    seen.append(answer(watched, x))
                except IndexError as error:
                    _past_the_outputs(error, f, x)
                    raise
        inputs_kept(before, [x], ["x"])
        calls.append(len(ran["backward"]) + len(ran["grad"]))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
    return {"jacobians": seen, "calls": calls, "evaluated_elsewhere": elsewhere, "evaluated_far": far}


def _past_the_outputs(error: IndexError, f, x: torch.Tensor) -> None:
    """An index past f(x)'s end, when f(x) has fewer elements than x: a loop over x's elements, not y's."""
    outputs = f(x.detach()).numel()
    if outputs < x.numel() and "out of bounds" in str(error):
        raise Mistake(f"your code raised IndexError: {error}. Here f(x) has {outputs} elements and x has "
                      f"{x.numel()}: did the loop run over x's elements? The Jacobian has one row per output "
                      "element y[i], so loop over y's elements.", "rows_over_inputs") from None


def _rows_over_inputs(description: str, got, want: torch.Tensor, inputs: int) -> None:
    """One row per element of x where f has another number of outputs: the loop ran over x."""
    if isinstance(got, torch.Tensor) and want.dim() == 2 and got.dim() == 2 and want.shape[0] != inputs \
            and tuple(got.shape) == (inputs, want.shape[1]):
        raise Mistake(f"for f = {description}, your result has {inputs} rows, one per element of x, but the "
                      f"Jacobian has {want.shape[0]}, one per element of y = f(x): did the loop run over x's elements? "
                      "Loop over y's elements, one row per output element y[i].", "rows_over_inputs")


JACOBIAN_HOW = "Call f once, on a copy of x that requires grad, and differentiate each output element in turn."


def _sum_of_rows(what: str, got, want: torch.Tensor) -> None:
    """One backward() from y.sum() (or gradient= all ones) gives the sum of the rows, of one row's shape."""
    if isinstance(got, torch.Tensor) and want.dim() == 2 and want.shape[0] > 1 and got.shape == want.shape[1:] \
            and not got.is_complex() and close(got, want.sum(0)):
        raise Mistake(f"{what} has the shape of one row, {tuple(got.shape)}, not {tuple(want.shape)}, and it is the "
                      "sum of all the rows: that is what one backward() from y.sum() (or with gradient= all ones) "
                      "gives. The Jacobian has a row per output element y[i], each from its own backward().",
                      "one_row")


def _jacobian_rows_judge(seen, expected, inputs):
    _finite_difference(seen, "the Jacobian", JACOBIAN_HOW)
    for i, ((description, _), got, want, calls) in enumerate(zip(
            JACOBIAN_FUNCTIONS, seen["jacobians"], expected["jacobians"], seen["calls"], strict=True)):
        what = f"the Jacobian of f = {description}"
        if isinstance(got, torch.Tensor) and got.shape == want.shape and want.shape[0] > 1 and \
                diagnose_gradient(want.cumsum(0), got) is None:
            raise Mistake(f"for f = {description}, each row of your Jacobian includes the rows above it: "
                          "x.grad accumulated across backward() calls. Reset it before each row.",
                          "grad_accumulated")
        require(diagnose_aliased_rows(want, got, what))
        _sum_of_rows(what, got, want)
        _rows_over_inputs(description, got, want, inputs["x"].numel())
        wrong = diagnose_gradient(want, got, what)
        _far_from_x(seen, i, wrong, JACOBIAN_HOW)
        require(wrong)
        rows = want.shape[0]
        if calls != rows:
            raise Mistake(f"for f = {description}, the Jacobian has {rows} rows but your code differentiated "
                          f"{calls} time(s): build it one row per call, one backward() (or "
                          "torch.autograd.grad) for each output element.", "not_row_by_row")


# --- hand_derivative ----------------------------------------------------------------------------

def _hand_inputs(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), torch.float64, low=-2.0, high=2.0)}


def _hand_derivative_call(answer, inputs):
    x = inputs["x"]
    before = snapshot(x)
    no_autograd = "write the derivative by hand here, without autograd."
    with forbidden(torch.autograd, "grad", no_autograd, "autograd_used"), \
            forbidden(torch.autograd, "backward", no_autograd, "autograd_used"), \
            TorchCalls(keep_arguments=("sin",)) as torch_calls:
        got = answer(x)
    inputs_kept(before, [x], ["x"])
    if isinstance(got, torch.Tensor) and got.shape == x.shape:  # else the judge says what came back
        _derived_by_hand(torch_calls, x)
    return {"result": got}


def _derived_by_hand(torch_calls: TorchCalls, x: torch.Tensor) -> None:
    """A finite difference gets the numbers right without any derivative: it evaluates f near x."""
    square = x.detach() ** 2
    for argument in torch_calls.arguments["sin"]:
        # complex points (a complex step), or points just beside x**2; sin of x**2 + pi/2 (a cos) or of
        # a part of x is another way of writing f'(x), judged by its values
        nearby = argument.shape == square.shape and not argument.is_complex() and not close(argument, square) \
            and bool(((argument - square).abs() <= 0.05 * (1 + square.abs())).all())
        if argument.is_complex() or nearby:
            raise Mistake("your answer evaluates f at shifted points x ± h (sin at points beside x**2), as a "
                          "finite difference (f(x + h) - f(x - h)) / 2h does: that estimates f'(x) instead of "
                          "deriving it. Write f'(x) with the product and chain rules.", "finite_difference")


# What a slip by hand gives, as the grader computes it: (the value's key, the slip named).
HAND_SLIPS = (
    ("no_inner_factor", "the chain rule inside sin(x**2) is missing its inner factor: differentiate "
                        "the inner function x**2 too, and multiply.", "inner_factor"),
    ("exp_sign_dropped", "the exp(-x) part has the wrong sign: its inner function is -x, and the chain "
                         "rule multiplies by that function's derivative too.", "exp_sign"),
    ("derivatives_multiplied", "it multiplies the two factors' derivatives: the product rule for "
                               "u * v is u' v + u v', not u' v'.", "product_rule"),
)


# A formula derived by hand agrees with autograd's float64 result to a few units in the last place,
# whatever its style; a finite difference, whatever its step, cannot get closer than about 1e-11.
EXACT_TOLERANCE = 1e-12


def _estimated(got: torch.Tensor, want: torch.Tensor) -> str | None:
    """Right to the check's tolerance but not to float64's: the mark an estimate leaves."""
    scale = 1.0 + float(want.abs().max()) if want.numel() else 1.0
    error = float((got.detach().to(want.dtype) - want).abs().max()) if want.numel() else 0.0
    if error <= EXACT_TOLERANCE * scale:
        return None
    return ("your derivative is close to autograd's but not exact (largest error "
            f"{error:.1e}, where a formula derived by hand agrees to about 1e-15): that is what a finite "
            "difference (f(x + h) - f(x - h)) / 2h gives, an estimate. Write f'(x) with the product and "
            "chain rules.")


def _hand_derivative_judge(seen, expected, inputs):
    problem = diagnose_gradient(expected["derivative"], seen["result"], "your derivative")
    if problem is None:
        estimate = _estimated(seen["result"], expected["derivative"])
        if estimate:
            raise Mistake(estimate, "finite_difference")
    if problem and problem.kind == "wrong_value":
        got = seen["result"]
        for key, slip, kind in HAND_SLIPS:
            if isinstance(got, torch.Tensor) and key in expected and got.shape == expected[key].shape \
                    and not got.is_complex() and close(got, expected[key]):
                raise Mistake(f"your derivative differs from autograd's, and matches a known slip: {slip}", kind)
        raise Mistake(problem + " Check each factor: the product rule for sin(x**2) * exp(-x), "
                      "and the chain rule inside each one.", "chain_rule")
    require(problem)


# --- hvp ----------------------------------------------------------------------------------------

NO_SHORTCUT_HVP = "build H v yourself: differentiate twice with create_graph=True, not with PyTorch's {}()."
# The second differentiation started from g itself: PyTorch's message is the same for both calls.
UNWEIGHTED_SECOND = ("your second differentiation started from the first derivative g, a tensor of several elements, "
                     "with no weights: {call} needs a scalar output or {argument}. The weights are what make the "
                     "result H v: differentiating g.sum() instead would give H times a vector of ones.")
NO_CREATE_GRAPH = ("your second differentiation found no graph: the first derivative was computed without "
                   "create_graph=True, so it is a plain tensor with no history. Pass create_graph=True to the "
                   "first torch.autograd.grad (or backward()) call.")


CUT_FIRST_DERIVATIVE = ("your second differentiation found no graph, although the first one kept it "
                        "(create_graph=True): the first derivative g was cut out of it before the second "
                        "(a detach(), .data, or a step under no_grad()). Compute H v from g itself.")


def _created_graph(ran: dict) -> bool:
    """Whether a differentiation the answer made asked autograd to record itself."""
    return any(call.get("create_graph") for call in ran["grad"] + ran["backward"])


def _raised_in(error: BaseException) -> str | None:
    """"backward" or "grad": which of torch.autograd's two entry points raised ``error`` (the innermost)."""
    found, tb = None, error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in ("backward", "grad") and code.co_filename.endswith(("autograd/__init__.py",
                                                                                 "autograd\\__init__.py")):
            found = code.co_name
        tb = tb.tb_next
    return found


def _hvp_inputs(rng):
    x = rand.tensor(rng, (rand.integer(rng, 2, 5),), torch.float64)
    return {"x": x, "vs": [rand.tensor(rng, x.shape, torch.float64) for _ in HVP_FUNCTIONS]}


def _hvp_call(answer, inputs):
    x, seen, calls, elsewhere, far, zeroed = inputs["x"], [], [], [], [], []
    for (_, f), v in zip(HVP_FUNCTIONS, inputs["vs"]):
        before = snapshot(x, v)
        f = watched = _WhereEvaluated(f, x)
        with ExitStack() as stack:
            for owner, name in [(torch.autograd.functional, "hvp"), (torch.autograd.functional, "vhp"),
                                (torch.autograd.functional, "hessian")] + \
                    [(torch.func, name) for name in ("hessian", "jacrev", "jacfwd", "grad", "vjp", "jvp")]:
                stack.enter_context(forbidden(owner, name, NO_SHORTCUT_HVP.format(name), "shortcut_used"))
            watch, ran = _watching_backward()
            stack.enter_context(watch)
            zeroing = stack.enter_context(_gradient_zeroing_watched())
            try:
                seen.append(answer(f, x, v))
            except RuntimeError as error:
                second = len(ran["backward"]) + len(ran["grad"]) >= 2
                why = not second and "does not have a grad_fn" in str(error) and \
                    watched.no_graph(x, "your first differentiation", "differentiate with respect to that copy")
                if why:
                    raise Mistake(why, "f_not_on_copy") from None
                if second and "does not require grad and does not have a grad_fn" in str(error):
                    if _created_graph(ran):
                        raise Mistake(CUT_FIRST_DERIVATIVE, "first_derivative_cut") from None
                    raise Mistake(NO_CREATE_GRAPH, "no_create_graph") from None
                if second and "implicitly created only for scalar outputs" in str(error):
                    call, argument = (("backward()", "gradient=") if _raised_in(error) == "backward" else
                                      ("torch.autograd.grad()", "grad_outputs="))
                    raise Mistake(UNWEIGHTED_SECOND.format(call=call, argument=argument), "v_ignored") from None
                raise
        _weights_kept(before[1], v)
        inputs_kept(before, [x, v], ["x", "v"])
        calls.append(len(ran["backward"]))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
        zeroed.append(bool(zeroing))
    return {"hvps": seen, "backward_calls": calls, "evaluated_elsewhere": elsewhere, "evaluated_far": far,
            "zeroed_a_gradient_with_graph": zeroed}


_TENSOR_ZERO = torch._C.TensorBase.zero_


@contextmanager
def _gradient_zeroing_watched():
    """Notes a zero_() of a tensor that has a history: .grad after backward(create_graph=True) is one, and
    zeroing it in place zeroes the first derivative g that the answer holds as that same tensor.

    A method patched for the duration, not a TorchFunctionMode: a mode would hand torch.autograd.grad's
    call back through the counting wrapper, and every differentiation would count twice.
    """
    seen = []

    def zero_(t):
        if t.grad_fn is not None:
            seen.append(True)
        return _TENSOR_ZERO(t)

    torch.Tensor.zero_ = zero_
    try:
        yield seen
    finally:
        del torch.Tensor.zero_


HVP_HOW = ("H v differentiates the first derivative once more, through the graph create_graph=True keeps: "
           "evaluate f at x only.")


def _v_applied_after(seen, expected, inputs) -> None:
    """(H times ones) * v for every f, H v for none: v multiplied the result of differentiating g.sum()
    instead of weighting g inside it. Judged over all functions, since for log-sum-exp H times ones is 0,
    whatever v multiplies."""
    pairs = [(got, ones * v, want) for got, ones, v, want in zip(seen["hvps"], expected["h_ones"], inputs["vs"],
                                                                 expected["hvps"], strict=True)]
    if all(isinstance(got, torch.Tensor) and got.shape == after.shape and got.dtype == after.dtype and
           close(got, after) for got, after, _ in pairs) and not all(close(after, want) for _, after, want in pairs):
        raise Mistake("your result is H times a vector of ones, multiplied by v afterwards: v was applied after the "
                      "second differentiation instead of inside it. H v differentiates (g * v).sum(): weight the "
                      "first derivative g by v, then differentiate.", "v_after")


def _hvp_judge(seen, expected, inputs):
    _finite_difference(seen, "H v from gradients at nearby points", HVP_HOW)
    _v_applied_after(seen, expected, inputs)
    for i, ((description, _), got, want, grad, ones, v) in enumerate(zip(
            HVP_FUNCTIONS, seen["hvps"], expected["hvps"], expected["grads"], expected["h_ones"], inputs["vs"],
            strict=True)):
        comparable = isinstance(got, torch.Tensor) and got.shape == want.shape and got.dtype == want.dtype
        if comparable and close(got, grad) and not close(want, grad):
            raise Mistake(f"for f = {description}, your result is the gradient of f, the first derivative: "
                          "H v differentiates (gradient · v) once more, through the graph that "
                          "create_graph=True keeps.", "first_derivative")
        if comparable and close(got, grad * v) and not close(want, grad * v):
            raise Mistake(f"for f = {description}, your result is the first derivative g times v, element by "
                          "element: the second differentiation is missing. H v differentiates (g * v).sum() "
                          "once more with respect to x, through the graph that create_graph=True keeps.",
                          "second_differentiation_missing")
        if comparable and close(got, ones) and not close(want, ones):
            raise Mistake(f"for f = {description}, your result is H times a vector of ones, as from differentiating "
                          "g.sum(): v was left out. H v weights the first derivative g by v before the second "
                          "differentiation.", "v_ignored")
        problem = diagnose_gradient(want, got, f"H v for f = {description}", stale=grad)
        _hvp_reset(description, problem, seen["zeroed_a_gradient_with_graph"][i])
        _far_from_x(seen, i, problem, HVP_HOW)
        require(problem)


def _hvp_reset(description: str, problem, zeroed: bool) -> None:
    """A .grad reset between the two differentiations goes wrong in its own ways when g is that .grad."""
    kind = getattr(problem, "kind", None)
    if kind == "stale_grad":
        raise Mistake(f"H v for f = {description} equals the expected H v plus the first derivative g: the "
                      "second backward() added into the .grad that still held g. Set x.grad = None between "
                      "the two (x.grad.zero_() would zero g as well: g is that very .grad tensor), or take "
                      "g from torch.autograd.grad, which returns it instead of adding into .grad.", "stale_grad")
    if kind == "all_zeros" and zeroed:
        raise Mistake(f"H v for f = {description} is all zeros: your code called zero_() on .grad after "
                      "backward(create_graph=True), and g is that same tensor, so g became zeros too and "
                      "g · v was 0 before the second differentiation. Set x.grad = None instead, which leaves "
                      "g as it is, or take g from torch.autograd.grad.", "grad_zeroed_with_g")


grad_via_backward = Exercise(_x_any_shape, _grad_via_backward_call, _grad_via_backward_judge, [
    "Work on a copy of x that requires grad, so the caller's x stays as it was.",
    "backward() fills .grad only of leaves that require grad: your copy has to be one (lesson 1, "
    "section 9, made such a leaf from any data).",
    "backward() returns None: what it computed is stored on a tensor, not returned. Which tensor?",
])
vjp = Exercise(_vjp_inputs, _vjp_call, _vjp_judge, [
    "y = f(x) is a vector, so backward() needs to be told how to weight each output.",
    "backward() takes that weighting as its gradient= argument; the result lands in .grad of a "
    "copy of x that requires grad.",
])
grads_with_intermediate = Exercise(_x_any_shape, _grads_with_intermediate_call, _grads_with_intermediate_judge, [
    "h is not a leaf, so autograd does not keep its .grad unless you ask it to.",
    "The method that keeps a non-leaf's gradient must be called before backward() runs.",
    "After one backward() from y, read .grad of both the copy of x and h.",
])
two_losses = Exercise(_x_any_shape, _two_losses_call, _two_losses_judge, [
    "The first backward() frees the graph unless you ask it to keep it, and .grad adds up.",
    "Between the two backward() calls: keep a copy of the first gradient (not the tensor object "
    "itself: it is updated in place), then reset .grad.",
])
jacobian_rows = Exercise(_jacobian_inputs, _jacobian_rows_call, _jacobian_rows_judge, [
    "Row i of the Jacobian is the gradient of the i-th output y[i] with respect to x.",
    "One backward() per output element on the same graph: keep the graph between calls, and start "
    "each row from an empty .grad.",
    "Copy each row out of .grad before the next call, then stack the rows.",
])
hand_derivative = Exercise(_hand_inputs, _hand_derivative_call, _hand_derivative_judge, [
    "f is a product of two factors, each a function of x: which rule differentiates a product?",
    "Each factor is a function of a function of x: differentiate the outside, then multiply by the "
    "derivative of the inside.",
    "Test your formula at a few points in a scratch cell against autograd (a leaf x of a few elements, "
    "f(x).sum().backward(), x.grad) before running the check: a wrong sign or a missing factor shows at once.",
])
hvp = Exercise(_hvp_inputs, _hvp_call, _hvp_judge, [
    "H v is the gradient of a scalar: the dot product of the first derivative g with v.",
    "Differentiating g again needs g to have a graph of its own: the first differentiation has to "
    "record one, which it does only when asked (create_graph=...).",
    "If the second differentiation says a tensor does not require grad, look at what the first one was "
    "asked to record. Both differentiations are with respect to the same tensor.",
])

# The lesson's last cell calls check.progress(globals()); CORE is its first pass, the lesson's essentials.
EXERCISES, CORE, progress, ERROR_SECTIONS = close_lesson(
    globals(), core=("grad_via_backward", "two_losses"), written={"why_scalar": 2})
