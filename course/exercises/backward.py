"""Lesson 2 exercises: backward() and gradients.

Every expected value below is computed by PyTorch on a detached clone of the same random input,
so nothing here is an answer a student could copy.
"""
import torch

from .. import random_inputs as rand
from ..diagnose import diagnose_gradient
from ..exercise import Exercise
from ..mistakes import Mistake, require
from ..technique import NO_AUTOGRAD_GRAD, forbidden, inputs_kept, oracle_leaf, snapshot


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





def _grad_via_backward(answer, rng):
    x = rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))
    for description, f in SCALAR_FUNCTIONS:
        before = snapshot(x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD):
            got = answer(f, x)
        inputs_kept(before, [x], ["x"])
        x0 = oracle_leaf(x)
        (expected,) = torch.autograd.grad(f(x0), x0)
        require(diagnose_gradient(expected, got, f"the gradient of the {description}"))


def _vjp(answer, rng):
    x = rand.tensor(rng, (rand.integer(rng, 2, 6),), rand.float_dtype(rng))
    for description, f in VECTOR_FUNCTIONS:
        x0 = oracle_leaf(x)
        y0 = f(x0)
        v = rand.tensor(rng, y0.shape, x.dtype)
        before = snapshot(x, v)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD):
            got = answer(f, x, v)
        inputs_kept(before, [x, v], ["x", "v"])
        (expected,) = torch.autograd.grad(y0, x0, grad_outputs=v, retain_graph=True)
        (from_sum,) = torch.autograd.grad(y0.sum(), x0)
        if isinstance(got, torch.Tensor) and got.shape == expected.shape and \
                diagnose_gradient(from_sum, got) is None and diagnose_gradient(expected, got) is not None:
            raise Mistake(f"for y = {description}, your result is the gradient of y.sum(), as if v were all "
                          "ones: pass the vector as backward(gradient=v).")
        require(diagnose_gradient(expected, got, f"v^T J for y = {description}"))


def _pair(got, names: str):
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        raise Mistake(f"return a pair ({names}), got {type(got).__name__}.")
    return got


def _grads_with_intermediate(answer, rng):
    x = rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))
    before = snapshot(x)
    dy_dx, dy_dh = _pair(answer(x), "dy_dx, dy_dh")
    inputs_kept(before, [x], ["x"])
    x0 = oracle_leaf(x)
    h0 = torch.tanh(x0)
    expected_x, expected_h = torch.autograd.grad((h0**2 * x0).sum(), [x0, h0])
    if dy_dh is None:
        raise Mistake("dy_dh is None: h is not a leaf, so autograd frees its gradient. "
                      "Call h.retain_grad() before backward().")
    require(diagnose_gradient(expected_x, dy_dx, "dy_dx"))
    require(diagnose_gradient(expected_h, dy_dh, "dy_dh"))


def _two_losses(answer, rng):
    x = rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))
    before = snapshot(x)
    g1, g2 = _pair(answer(x), "grad of loss1, grad of loss2")
    inputs_kept(before, [x], ["x"])
    if g1 is not None and g1 is g2:
        raise Mistake("both gradients are the same tensor object: backward() adds into .grad in place, "
                      "so keep a .clone() of the first one before the second backward().")
    x0 = oracle_leaf(x)
    h0 = torch.sin(x0) * x0
    (expected_1,) = torch.autograd.grad(h0.sum(), x0, retain_graph=True)
    (expected_2,) = torch.autograd.grad((h0**2).mean(), x0)
    require(diagnose_gradient(expected_1, g1, "the gradient of loss1"))
    require(diagnose_gradient(expected_2, g2, "the gradient of loss2", stale=expected_1))


JACOBIAN_FUNCTIONS = [
    ("x * x.sum()", lambda t: t * t.sum()),
    ("[sin(x0*x1), x0 + x1**2, ...]", lambda t: torch.stack([torch.sin(t[0] * t[1]), t[0] + t[1] ** 2,
                                                             (t**3).sum()])),
    ("softmax(x)", lambda t: torch.softmax(t, 0)),
]


def _jacobian_rows(answer, rng):
    x = rand.tensor(rng, (rand.integer(rng, 2, 5),), torch.float64)
    for description, f in JACOBIAN_FUNCTIONS:
        before = snapshot(x)
        with forbidden(torch.autograd.functional, "jacobian",
                       "build the Jacobian yourself, one row per output element, not with jacobian()."):
            got = answer(f, x)
        inputs_kept(before, [x], ["x"])
        expected = torch.autograd.functional.jacobian(f, x.detach().clone())
        if isinstance(got, torch.Tensor) and got.shape == expected.shape and expected.shape[0] > 1 and \
                diagnose_gradient(expected.cumsum(0), got) is None:
            raise Mistake(f"for f = {description}, each row of your Jacobian includes the rows above it: "
                          "x.grad accumulated across backward() calls. Reset it before each row.")
        require(diagnose_gradient(expected, got, f"the Jacobian of f = {description}"))


def hand_written_f(x: torch.Tensor) -> torch.Tensor:
    """The function whose derivative the student derives by hand (it is printed in the lesson)."""
    return torch.sin(x**2) * torch.exp(-x)


def _hand_derivative(answer, rng):
    x = rand.tensor(rng, rand.shape(rng), torch.float64, low=-2.0, high=2.0)
    before = snapshot(x)
    no_autograd = "write the derivative by hand here, without autograd."
    with forbidden(torch.autograd, "grad", no_autograd), forbidden(torch.autograd, "backward", no_autograd):
        got = answer(x)
    inputs_kept(before, [x], ["x"])
    x0 = oracle_leaf(x)
    (expected,) = torch.autograd.grad(hand_written_f(x0).sum(), x0)
    problem = diagnose_gradient(expected, got, "your derivative")
    if problem:
        raise Mistake(problem + " Check each factor: the product rule for sin(x**2) * exp(-x), "
                      "and the chain rule inside each one.")
    # gradcheck: a finite-difference opinion that does not rely on autograd's own derivative
    class HandWritten(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return hand_written_f(t)

        @staticmethod
        def backward(ctx, grad_output):
            (t,) = ctx.saved_tensors
            return grad_output * answer(t.detach())

    if not torch.autograd.gradcheck(HandWritten.apply, (x0,), raise_exception=False):
        raise Mistake("your derivative disagrees with finite differences (gradcheck in float64).")


grad_via_backward = Exercise("grad_via_backward", _grad_via_backward, [
    "Work on a copy of x that requires grad: x.detach().clone().requires_grad_(True).",
    "Call f on that copy, call .backward() on the scalar result, then read the copy's .grad.",
])
vjp = Exercise("vjp", _vjp, [
    "y = f(x) is a vector, so backward() needs to be told how to weight each output.",
    "y.backward(gradient=v) computes v^T J into x.grad, where x is a copy that requires grad.",
])
grads_with_intermediate = Exercise("grads_with_intermediate", _grads_with_intermediate, [
    "h is not a leaf, so its .grad is freed unless you ask autograd to keep it.",
    "Call h.retain_grad() right after computing h, then y.backward(), then read x.grad and h.grad.",
])
two_losses = Exercise("two_losses", _two_losses, [
    "The first backward() frees the graph unless you pass retain_graph=True, and .grad adds up.",
    "loss1.backward(retain_graph=True); keep g1 = x.grad.clone(); reset x.grad = None; loss2.backward().",
])
jacobian_rows = Exercise("jacobian_rows", _jacobian_rows, [
    "Row i of the Jacobian is the gradient of the i-th output y[i] with respect to x.",
    "For each i: reset x.grad, call y[i].backward(retain_graph=True), copy x.grad into row i.",
])
hand_derivative = Exercise("hand_derivative", _hand_derivative, [
    "f is a product u(x) * w(x) with u = sin(x**2) and w = exp(-x): use the product rule.",
    "u'(x) = cos(x**2) * 2x by the chain rule, and w'(x) = -exp(-x); f' = u' w + u w'.",
])
