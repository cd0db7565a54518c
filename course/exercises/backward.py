"""Lesson 2 exercises: backward() and gradients.

Each exercise draws its inputs from a seed, runs the answer in the student's kernel (``call``) and
judges what it saw against expected values computed by the grader with real PyTorch
(``autograder/grading/judging/references/backward.py``); nothing here holds an answer.

Where an exercise's text states how to compute something ("from one call to backward()",
"computing h only once", "by hand"), ``call`` watches the answer run (calls counted, torch
functions recorded) and the check fails with that rule's message even when the numbers are right.
"""
import warnings
from contextlib import ExitStack

from torch.overrides import TorchFunctionMode

import torch

from ..checks import random_inputs as rand
from ..checks.compare import close
from ..checks.diagnose import describe_value, diagnose_aliased_rows, diagnose_gradient, diagnose_swapped
from ..checks.explain_error import explain_errors_in_cells
from ..checks.mistakes import Mistake, require
from ..checks.technique import NO_AUTOGRAD_GRAD, TorchCalls, counting, forbidden, inputs_kept, snapshot
from ..exercise import Exercise, name_exercises
from ..progress import lesson_progress

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
    """f as the answer gets it, noting whether it was ever evaluated anywhere but at x.

    An answer that evaluates f at shifted points, (f(x + h) - f(x - h)) / 2h, gets the numbers right
    without autograd: the exercise's rule ("with backward()") is broken even though the values pass.
    """

    def __init__(self, f, x: torch.Tensor):
        self.f, self.x, self.elsewhere, self.given = f, x.detach().clone(), False, []
        self.shapes = []  # shapes f was called on that are not x's (a part of x, a row): not a difference

    def __call__(self, t, *args, **kwargs):
        if isinstance(t, torch.Tensor) and t.numel() != self.x.numel() and not t.is_complex():
            self.shapes.append(list(t.shape))
        elif isinstance(t, torch.Tensor) and t.shape != self.x.shape and not t.is_complex():
            self.elsewhere |= not self._same_points(t.reshape(self.x.shape))  # x reshaped is still x
        elif not isinstance(t, torch.Tensor) or t.is_complex() or not self._same_points(t):
            self.elsewhere = True
        if isinstance(t, torch.Tensor):
            self.given.append(t)
        return self.f(t, *args, **kwargs)

    def _same_points(self, t: torch.Tensor) -> bool:
        return torch.equal(t.detach().to(self.x.dtype), self.x) or self._converted(t)

    def _converted(self, t: torch.Tensor) -> bool:
        """x itself in another floating dtype (a copy through .tolist(), say): the judge names the dtype."""
        return t.is_floating_point() and t.dtype != self.x.dtype and torch.equal(t.detach(), self.x.to(t.dtype))

    def where(self):
        """What the judge reads: True (f evaluated at other points), a shape f got instead of x's, or False."""
        return True if self.elsewhere else (self.shapes[0] if self.shapes else False)

    def grad_filled(self) -> bool:
        """Whether backward() filled the .grad of a leaf f was called on (the answer's copy of x)."""
        return any(t.is_leaf and t.grad is not None for t in self.given)

    def no_graph(self, given_x: torch.Tensor) -> str | None:
        """Why backward() found no graph, when f was only ever called on tensors that do not require grad.

        PyTorch's error says only that some tensor has no grad_fn; which tensor f got tells the slip:
        the caller's own x (the copy was made but not used), or a copy that never required grad.
        """
        if not self.given or any(t.requires_grad for t in self.given):
            return None
        if any(t is given_x for t in self.given):
            return ("backward() found no graph: f was called on the x you were given, which does not require "
                    "grad. Call f on a copy of x that requires grad, and read that copy's .grad.")
        return ("backward() found no graph: f was called on a tensor that does not require grad (a copy made "
                "without .requires_grad_(True), or a .detach() or .data of one). Call f on a copy of x that "
                "requires grad.")


FINITE_DIFFERENCE = ("your answer evaluates f at points other than x, as a finite difference "
                     "(f(x + h) - f(x - h)) / 2h does: that estimates {what} instead of letting autograd "
                     "compute it. {how}")


def _finite_difference(seen, what: str, how: str) -> None:
    where = seen["evaluated_elsewhere"]
    if any(w is True for w in where):
        raise Mistake(FINITE_DIFFERENCE.format(what=what, how=how), "finite_difference")


def _on_part_of_x(seen, index: int, wrong: str | None, how: str) -> None:
    """A wrong result from calls of f on parts of x (an element, a row): f is a function of all of x.
    Said only when the result is wrong: for some f, element by element gives the right numbers."""
    shape = seen["evaluated_elsewhere"][index]
    if wrong and isinstance(shape, list):
        raise Mistake(f"f was called on a tensor of shape {tuple(shape)}, not on the whole of x (shape "
                      f"{tuple(seen['x_shape'])}): f is a function of all of x at once, so f of a part of x "
                      f"(an element, a row) has another gradient. {how}", "f_on_part_of_x")


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


def _grad_via_backward_call(answer, inputs):
    x, seen, calls, elsewhere, filled, copies = inputs["x"], [], [], [], [], []
    before = snapshot(x)
    for _, f in SCALAR_FUNCTIONS:
        watched = _WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            try:
                seen.append(answer(watched, x))
            except RuntimeError as error:
                why = "does not require grad and does not have a grad_fn" in str(error) and watched.no_graph(x)
                if why:
                    raise Mistake(why, "f_not_on_copy") from None
                raise
        inputs_kept(before, [x], ["x"])
        calls.append(len(ran))
        elsewhere.append(watched.where())
        filled.append(seen[-1] is None and watched.grad_filled())
        copies.append(any(seen[-1] is t for t in watched.given))
    return {"grads": seen, "backward_calls": calls, "evaluated_elsewhere": elsewhere, "none_but_filled": filled,
            "x_shape": list(x.shape), "returned_the_copy": copies}


GRAD_HOW = "Call f once, on a copy of x that requires grad, and let backward() fill the copy's .grad."


def _grad_via_backward_judge(seen, expected, inputs):
    _finite_difference(seen, "the gradient", GRAD_HOW)
    if any(seen["none_but_filled"]):
        raise Mistake("your function returned None, yet backward() did fill the .grad of the copy you called f "
                      "on. backward() itself returns None (it stores the gradient instead of returning it): "
                      "return the gradient, not what backward() returns.", "returned_none")
    if any(seen.get("returned_the_copy", ())):
        raise Mistake("your function returned the copy of x that f was called on, not its gradient: backward() "
                      "stores the gradient in that copy's .grad.", "returned_input")
    for i, ((description, _), got, want, calls) in enumerate(zip(SCALAR_FUNCTIONS, seen["grads"], expected["grads"],
                                                                 seen["backward_calls"], strict=True)):
        _on_part_of_x(seen, i, diagnose_gradient(want, got), GRAD_HOW)
        require(diagnose_gradient(want, got, f"the gradient of the {description}", backward_calls=calls))
        if calls == 0:
            raise Mistake(f"the gradient of the {description} is right, but backward() never ran: the exercise "
                          "asks for the gradient found with backward().", "no_backward")


# --- vjp ----------------------------------------------------------------------------------------

def _vjp_inputs(rng):
    x = rand.tensor(rng, (rand.integer(rng, 2, 6),), rand.float_dtype(rng))
    return {"x": x, "vs": [rand.tensor(rng, f(x).shape, x.dtype) for _, f in VECTOR_FUNCTIONS]}


def _vjp_call(answer, inputs):
    x, seen, calls, weighted, elsewhere = inputs["x"], [], [], [], []
    for (_, f), v in zip(VECTOR_FUNCTIONS, inputs["vs"]):
        before = snapshot(x, v)
        watched = _WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            seen.append(answer(watched, x, v))
        inputs_kept(before, [x, v], ["x", "v"])
        calls.append(len(ran))
        weighted.append(any(call.get("grad_tensors") is not None for call in ran))
        elsewhere.append(watched.where())
    return {"vjps": seen, "backward_calls": calls, "gradient_passed": weighted, "evaluated_elsewhere": elsewhere,
            "x_shape": list(x.shape)}


VJP_HOW = "Call f once, on a copy of x that requires grad, and pass v to backward()."


def _vjp_judge(seen, expected, inputs):
    _finite_difference(seen, "v^T J", VJP_HOW)
    for i, ((description, _), got, want, from_sum, calls) in enumerate(zip(
            VECTOR_FUNCTIONS, seen["vjps"], expected["vjps"], expected["sum_grads"], seen["backward_calls"],
            strict=True)):
        _on_part_of_x(seen, i, diagnose_gradient(want, got), VJP_HOW)
        if isinstance(got, torch.Tensor) and got.shape == want.shape and \
                diagnose_gradient(from_sum, got) is None and diagnose_gradient(want, got) is not None:
            raise Mistake(f"for y = {description}, your result is the gradient of y.sum(), as if v were all "
                          "ones: pass the vector as backward(gradient=v).", "v_ignored")
        require(diagnose_gradient(want, got, f"v^T J for y = {description}", backward_calls=calls))
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


def _grads_with_intermediate_judge(seen, expected, inputs):
    dy_dx, dy_dh = _pair(seen["result"], "dy_dx, dy_dh")
    calls = seen["backward_calls"]
    require(diagnose_swapped((expected["dy_dx"], expected["dy_dh"]), seen["result"], ("dy_dx", "dy_dh")))
    if dy_dh is None and calls:
        raise Mistake("dy_dh is None: h is not a leaf, so autograd does not keep its gradient. "
                      "Call h.retain_grad() before backward().", "grad_none_not_leaf")
    n = expected["dy_dx"].numel()
    if all(isinstance(g, torch.Tensor) and g.shape == want.shape and not g.is_complex() and close(g * n, want)
           for g, want in ((dy_dx, expected["dy_dx"]), (dy_dh, expected["dy_dh"]))) and n > 1:
        raise Mistake(f"dy_dx and dy_dh are both 1/{n} of the expected gradients: y is the sum over i, not the "
                      "mean (a mean divides y, and so every gradient, by the number of elements).", "mean_for_sum")
    require(diagnose_gradient(expected["dy_dx"], dy_dx, "dy_dx", backward_calls=calls))
    require(diagnose_gradient(expected["dy_dh"], dy_dh, "dy_dh", backward_calls=calls))
    if calls != 1:
        raise Mistake(f"backward() ran {calls} times: the exercise asks for both gradients from one call to "
                      "backward(). Keep h's gradient with h.retain_grad() and read x.grad and h.grad after "
                      "that one call.", "several_backward_calls")
    if seen.get("h_grad_kept") is False:
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
        with _SinWatch(x) as torch_calls, stack:
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
    return {"result": got, "same_object": same_object,
            "differentiations": len(ran["backward"]) + len(ran["grad"])}


def _two_losses_judge(seen, expected, inputs):
    g1, g2 = _pair(seen["result"], "grad of loss1, grad of loss2")
    if seen["differentiations"] == 1 and (diagnose_gradient(expected["loss1"], g1) or
                                          diagnose_gradient(expected["loss2"], g2)):
        raise Mistake("backward() ran only once, so .grad holds one gradient, and the exercise asks for two: "
                      "call backward() from each loss, keeping the graph for the second (one backward() from "
                      "loss1 + loss2 would give the gradient of the sum, not each loss's own).", "one_backward")
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
    require(diagnose_gradient(expected["loss1"], g1, "the gradient of loss1"))
    require(diagnose_gradient(expected["loss2"], g2, "the gradient of loss2", stale=expected["loss1"]))


# --- jacobian_rows ------------------------------------------------------------------------------

def _jacobian_inputs(rng):
    return {"x": rand.tensor(rng, (rand.integer(rng, 2, 5),), torch.float64)}


def _jacobian_rows_call(answer, inputs):
    x, seen, calls, elsewhere = inputs["x"], [], [], []
    before = snapshot(x)
    for _, f in JACOBIAN_FUNCTIONS:
        watched = _WhereEvaluated(f, x)
        with forbidden(torch.autograd.functional, "jacobian",
                       "build the Jacobian yourself, one row per output element, not with jacobian()."):
            stack, ran = _watching_backward()
            with stack:
                seen.append(answer(watched, x))
        inputs_kept(before, [x], ["x"])
        calls.append(len(ran["backward"]) + len(ran["grad"]))
        elsewhere.append(watched.where())
    return {"jacobians": seen, "calls": calls, "evaluated_elsewhere": elsewhere, "x_shape": list(x.shape)}


JACOBIAN_HOW = "Call f once, on a copy of x that requires grad, and differentiate each output element in turn."


def _jacobian_rows_judge(seen, expected, inputs):
    _finite_difference(seen, "the Jacobian", JACOBIAN_HOW)
    for i, ((description, _), got, want, calls) in enumerate(zip(
            JACOBIAN_FUNCTIONS, seen["jacobians"], expected["jacobians"], seen["calls"], strict=True)):
        what = f"the Jacobian of f = {description}"
        _on_part_of_x(seen, i, diagnose_gradient(want, got), JACOBIAN_HOW)
        if isinstance(got, torch.Tensor) and got.shape == want.shape and want.shape[0] > 1 and \
                diagnose_gradient(want.cumsum(0), got) is None:
            raise Mistake(f"for f = {description}, each row of your Jacobian includes the rows above it: "
                          "x.grad accumulated across backward() calls. Reset it before each row.",
                          "grad_accumulated")
        require(diagnose_aliased_rows(want, got, what))
        if isinstance(got, torch.Tensor) and want.dim() == 2 and tuple(got.shape) == tuple(want.shape[1:]) \
                and want.shape[0] > 1:
            raise Mistake(f"{what} has the shape of one row, {tuple(got.shape)}, not {tuple(want.shape)}: one "
                          "backward() from y.sum() gives the sum of all the rows. The Jacobian has a "
                          "row per output element y[i], each from its own backward().", "one_row")
        require(diagnose_gradient(want, got, what))
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
    x, seen, calls, elsewhere = inputs["x"], [], [], []
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
            try:
                seen.append(answer(f, x, v))
            except RuntimeError as error:
                second = len(ran["backward"]) + len(ran["grad"]) >= 2
                if second and "does not require grad and does not have a grad_fn" in str(error):
                    if _created_graph(ran):
                        raise Mistake(CUT_FIRST_DERIVATIVE, "first_derivative_cut") from None
                    raise Mistake(NO_CREATE_GRAPH, "no_create_graph") from None
                if second and "implicitly created only for scalar outputs" in str(error):
                    call, argument = (("backward()", "gradient=") if _raised_in(error) == "backward" else
                                      ("torch.autograd.grad()", "grad_outputs="))
                    raise Mistake(UNWEIGHTED_SECOND.format(call=call, argument=argument), "v_ignored") from None
                raise
        inputs_kept(before, [x, v], ["x", "v"])
        calls.append(len(ran["backward"]))
        elsewhere.append(watched.where())
    return {"hvps": seen, "backward_calls": calls, "evaluated_elsewhere": elsewhere, "x_shape": list(x.shape)}


HVP_HOW = ("H v differentiates the first derivative once more, through the graph create_graph=True keeps: "
           "evaluate f at x only.")


def _hvp_judge(seen, expected, inputs):
    _finite_difference(seen, "H v from gradients at nearby points", HVP_HOW)
    for i, ((description, _), got, want, grad, ones) in enumerate(zip(
            HVP_FUNCTIONS, seen["hvps"], expected["hvps"], expected["grads"], expected["h_ones"], strict=True)):
        _on_part_of_x(seen, i, diagnose_gradient(want, got), HVP_HOW)
        comparable = isinstance(got, torch.Tensor) and got.shape == want.shape and got.dtype == want.dtype
        if comparable and close(got, grad) and not close(want, grad):
            raise Mistake(f"for f = {description}, your result is the gradient of f, the first derivative: "
                          "H v differentiates (gradient · v) once more, through the graph that "
                          "create_graph=True keeps.", "first_derivative")
        if comparable and close(got, ones) and not close(want, ones):
            raise Mistake(f"for f = {description}, your result is H times a vector of ones, as from differentiating "
                          "g.sum(): v was left out. H v weights the first derivative g by v before the second "
                          "differentiation.", "v_ignored")
        problem = diagnose_gradient(want, got, f"H v for f = {description}", stale=grad)
        if problem is not None and problem.kind == "stale_grad":
            raise Mistake(f"H v for f = {description} equals the expected H v plus the first derivative g: the "
                          "second backward() added into the .grad that still held g. Set x.grad = None between "
                          "the two (x.grad.zero_() would zero g as well: g is that very .grad tensor), or take "
                          "g from torch.autograd.grad, which returns it instead of adding into .grad.", "stale_grad")
        if problem is not None and problem.kind == "all_zeros":
            raise Mistake(f"H v for f = {description} is all zeros: the second differentiation found nothing to "
                          "pass on. If g is x.grad itself, x.grad.zero_() zeroed g too (they are one tensor), so "
                          "g · v was 0 before the second backward(): set x.grad = None instead, which leaves g as "
                          "it is.", "all_zeros")
        require(problem)


grad_via_backward = Exercise(_x_any_shape, _grad_via_backward_call, _grad_via_backward_judge, [
    "Work on a copy of x that requires grad, so the caller's x stays as it was.",
    "backward() fills .grad only of leaves that require grad: your copy has to be one (lesson 1, "
    "section 2, made such a leaf).",
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

EXERCISES = name_exercises(globals())
CORE = ("grad_via_backward", "two_losses")  # the first pass: the lesson's essentials

progress = lesson_progress(EXERCISES, core=CORE, written={"why_scalar": 2})

# Where this lesson explains each autograd error a student's own cell may raise.
ERROR_SECTIONS = {
    "no_graph": "section 1, backward() fills .grad of every leaf",
    "non_scalar": "section 2, backward() starts from a scalar",
    "gradient_shape": "section 2, backward() starts from a scalar",
    "grad_none": "section 3, Only leaves keep .grad",
    "freed_graph": "section 4, The graph is freed after backward()",
    "retain_grad_no_grad": "section 8, Keeping an intermediate gradient: retain_grad()",
    "unused_input": "section 9, torch.autograd.grad",
    "integer_requires_grad": "lesson 1, section 2",
    "math_on_tensor": "lesson 1, section 5",
    "numpy_requires_grad": "lesson 1, section 5",
    "flag_of_result": "lesson 1, section 7",
    "leaf_in_place": "lesson 3, section 5",
    "inference_saved": "lesson 3, section 6",
    "inference_in_place": "lesson 3, section 6",
    "numpy_bfloat16": "lesson 3, section 8",
    "saved_modified": "lesson 3, section 9",
    "grad_assigned": "lesson 4, section 2",
    "hook_no_grad": "lesson 4, section 9",
    "tensor_not_node": "lesson 1, section 3",
    "none_node": "lesson 1, section 3",
    "item_of_many": "lesson 3, section 8",
    "number_backward": "lesson 4, section 3",
    "post_hook_returned": "lesson 4, section 9",
    "post_hook_non_leaf": "lesson 4, section 9",
    "clip_without_grads": "lesson 4, section 7",
}
explain_errors_in_cells(ERROR_SECTIONS)
