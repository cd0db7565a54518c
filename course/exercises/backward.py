"""Lesson 2 exercises: backward() and gradients.

Each exercise draws its inputs from a seed, runs the answer in the student's kernel (``call``) and
judges what it saw against expected values computed by the grader with real PyTorch
(``autograder/grading/references/backward.py``); nothing here holds an answer.
"""
import torch

from ..checks import random_inputs as rand
from ..checks.diagnose import diagnose_gradient
from ..checks.mistakes import Mistake, require
from ..checks.technique import NO_AUTOGRAD_GRAD, forbidden, inputs_kept, snapshot
from ..exercise import Exercise, name_exercises

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
    ("[sin(x0*x1), x0 + x1**2, ...]", lambda t: torch.stack([torch.sin(t[0] * t[1]), t[0] + t[1] ** 2,
                                                             (t**3).sum()])),
    ("softmax(x)", lambda t: torch.softmax(t, 0)),
]


def hand_written_f(x: torch.Tensor) -> torch.Tensor:
    """The function whose derivative the student derives by hand (it is printed in the lesson)."""
    return torch.sin(x**2) * torch.exp(-x)


def _pair(got, names: str):
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        raise Mistake(f"return a pair ({names}), got {type(got).__name__}.", "not_a_pair")
    return got


# --- grad_via_backward ------------------------------------------------------------------------

def _x_any_shape(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))}


def _grad_via_backward_call(answer, inputs):
    x, seen = inputs["x"], []
    before = snapshot(x)
    for _, f in SCALAR_FUNCTIONS:
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD):
            seen.append(answer(f, x))
        inputs_kept(before, [x], ["x"])
    return {"grads": seen}


def _grad_via_backward_judge(seen, expected, inputs):
    for (description, _), got, want in zip(SCALAR_FUNCTIONS, seen["grads"], expected["grads"]):
        require(diagnose_gradient(want, got, f"the gradient of the {description}"))


# --- vjp ----------------------------------------------------------------------------------------

def _vjp_inputs(rng):
    x = rand.tensor(rng, (rand.integer(rng, 2, 6),), rand.float_dtype(rng))
    return {"x": x, "vs": [rand.tensor(rng, f(x).shape, x.dtype) for _, f in VECTOR_FUNCTIONS]}


def _vjp_call(answer, inputs):
    x, seen = inputs["x"], []
    for (_, f), v in zip(VECTOR_FUNCTIONS, inputs["vs"]):
        before = snapshot(x, v)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD):
            seen.append(answer(f, x, v))
        inputs_kept(before, [x, v], ["x", "v"])
    return {"vjps": seen}


def _vjp_judge(seen, expected, inputs):
    for (description, _), got, want, from_sum in zip(VECTOR_FUNCTIONS, seen["vjps"], expected["vjps"],
                                                    expected["sum_grads"]):
        if isinstance(got, torch.Tensor) and got.shape == want.shape and \
                diagnose_gradient(from_sum, got) is None and diagnose_gradient(want, got) is not None:
            raise Mistake(f"for y = {description}, your result is the gradient of y.sum(), as if v were all "
                          "ones: pass the vector as backward(gradient=v).", "v_ignored")
        require(diagnose_gradient(want, got, f"v^T J for y = {description}"))


# --- grads_with_intermediate --------------------------------------------------------------------

def _result_call(answer, inputs):
    x = inputs["x"]
    before = snapshot(x)
    got = answer(x)
    inputs_kept(before, [x], ["x"])
    return {"result": got}


def _grads_with_intermediate_judge(seen, expected, inputs):
    dy_dx, dy_dh = _pair(seen["result"], "dy_dx, dy_dh")
    if dy_dh is None:
        raise Mistake("dy_dh is None: h is not a leaf, so autograd frees its gradient. "
                      "Call h.retain_grad() before backward().", "grad_none_not_leaf")
    require(diagnose_gradient(expected["dy_dx"], dy_dx, "dy_dx"))
    require(diagnose_gradient(expected["dy_dh"], dy_dh, "dy_dh"))


# --- two_losses ---------------------------------------------------------------------------------

def _two_losses_call(answer, inputs):
    seen = _result_call(answer, inputs)
    got = seen["result"]
    seen["same_object"] = isinstance(got, (tuple, list)) and len(got) == 2 and got[0] is not None \
        and got[0] is got[1]
    return seen


def _two_losses_judge(seen, expected, inputs):
    g1, g2 = _pair(seen["result"], "grad of loss1, grad of loss2")
    if seen["same_object"]:
        raise Mistake("both gradients are the same tensor object: backward() adds into .grad in place, "
                      "so keep a .clone() of the first one before the second backward().", "grad_aliased")
    require(diagnose_gradient(expected["loss1"], g1, "the gradient of loss1"))
    require(diagnose_gradient(expected["loss2"], g2, "the gradient of loss2", stale=expected["loss1"]))


# --- jacobian_rows ------------------------------------------------------------------------------

def _jacobian_inputs(rng):
    return {"x": rand.tensor(rng, (rand.integer(rng, 2, 5),), torch.float64)}


def _jacobian_rows_call(answer, inputs):
    x, seen = inputs["x"], []
    before = snapshot(x)
    for _, f in JACOBIAN_FUNCTIONS:
        with forbidden(torch.autograd.functional, "jacobian",
                       "build the Jacobian yourself, one row per output element, not with jacobian()."):
            seen.append(answer(f, x))
        inputs_kept(before, [x], ["x"])
    return {"jacobians": seen}


def _jacobian_rows_judge(seen, expected, inputs):
    for (description, _), got, want in zip(JACOBIAN_FUNCTIONS, seen["jacobians"], expected["jacobians"]):
        if isinstance(got, torch.Tensor) and got.shape == want.shape and want.shape[0] > 1 and \
                diagnose_gradient(want.cumsum(0), got) is None:
            raise Mistake(f"for f = {description}, each row of your Jacobian includes the rows above it: "
                          "x.grad accumulated across backward() calls. Reset it before each row.",
                          "grad_accumulated")
        require(diagnose_gradient(want, got, f"the Jacobian of f = {description}"))


# --- hand_derivative ----------------------------------------------------------------------------

def _hand_inputs(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), torch.float64, low=-2.0, high=2.0)}


def _hand_derivative_call(answer, inputs):
    no_autograd = "write the derivative by hand here, without autograd."
    with forbidden(torch.autograd, "grad", no_autograd), forbidden(torch.autograd, "backward", no_autograd):
        return _result_call(answer, inputs)


def _hand_derivative_judge(seen, expected, inputs):
    problem = diagnose_gradient(expected["derivative"], seen["result"], "your derivative")
    if problem and problem.kind == "wrong_value":
        raise Mistake(problem + " Check each factor: the product rule for sin(x**2) * exp(-x), "
                      "and the chain rule inside each one.", "chain_rule")
    require(problem)


grad_via_backward = Exercise(_x_any_shape, _grad_via_backward_call, _grad_via_backward_judge, [
    "Work on a copy of x that requires grad, so the caller's x stays as it was.",
    "detach() and clone() give a copy with no history; requires_grad_(True) makes it a leaf that "
    "backward() will fill.",
    "Call f on that copy, call .backward() on the scalar it returns, then read the copy's .grad.",
])
vjp = Exercise(_vjp_inputs, _vjp_call, _vjp_judge, [
    "y = f(x) is a vector, so backward() needs to be told how to weight each output.",
    "backward() takes that weighting as its gradient= argument; the result lands in .grad of a "
    "copy of x that requires grad.",
])
grads_with_intermediate = Exercise(_x_any_shape, _result_call, _grads_with_intermediate_judge, [
    "h is not a leaf, so its .grad is freed unless you ask autograd to keep it.",
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
    "f is a product u(x) * w(x) with u = sin(x**2) and w = exp(-x): use the product rule.",
    "u needs the chain rule: the derivative of sin(g(x)) is cos(g(x)) times g'(x).",
    "The derivative of exp(-x) is -exp(-x). Put u' w + u w' together with tensor operations.",
])

EXERCISES = name_exercises(globals())
