"""`hand_derivative(x)`: a derivative written by hand as a formula, with no autograd."""
import re
from contextlib import ExitStack

import torch
import torch.autograd.forward_ad

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient
from ...checks.mistakes import Mistake, require
from ...checks.technique import TorchCalls, forbidden, inputs_kept, math_explained, snapshot
from ...exercise import Exercise


def inputs(rng):
    """x of one or two dimensions, sizes 1 to 5 (a dimension of size 1 at times), in float64."""
    return {"x": rand.tensor(rng, rand.shape(rng, size=(1, 5)), torch.float64, low=-2.0, high=2.0)}


NO_AUTOGRAD = ("write the derivative by hand here, as a formula, without autograd: in any form (backward(), "
               "torch.autograd.grad, torch.func's grad, jvp or jacfwd, forward-mode dual numbers) it computes the "
               "derivative for you.")

# Every door to autograd: reverse mode (torch.autograd.functional goes through torch.autograd.grad), torch.func's
# transforms and forward mode's dual numbers.
AUTOGRAD_DOORS = [(torch.autograd, "grad"), (torch.autograd, "backward"), (torch.autograd.forward_ad, "make_dual")] + \
    [(torch.func, name) for name in ("grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian",
                                      "linearize") if hasattr(torch.func, name)]


def call(answer, inputs):
    x = inputs["x"]
    before = snapshot(x)
    with ExitStack() as stack:
        for owner, name in AUTOGRAD_DOORS:
            stack.enter_context(forbidden(owner, name, NO_AUTOGRAD, "autograd_used"))
        torch_calls = stack.enter_context(TorchCalls(keep_arguments=("sin",)))
        stack.enter_context(math_explained())
        try:
            got = answer(x)
        except Mistake as mistake:
            if mistake.kind != "math_on_tensor":
                raise
            name = str(mistake).split(" ", 1)[0]  # "math.cos"
            raise Mistake(f"{name} was called on a tensor: the math module works on one Python number at a "
                          f"time, not on a tensor. Use torch.{name.split('.')[-1]}, which works elementwise on the "
                          "whole tensor.", "math_on_tensor") from None
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


def judge(seen, expected, inputs):
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
    if problem and problem.kind in BY_HAND:  # the generic words speak of .grad and graphs, which a formula has not
        times = re.search(r"is (\d+) times", problem)
        raise Mistake(BY_HAND[problem.kind].format(times=times.group(1) if times else "a whole number of"),
                      problem.kind)
    require(problem)


# The value diagnoses that would blame autograd (a graph cut, .grad added up), said of a formula by hand.
BY_HAND = {
    "all_zeros": "your derivative is all zeros, and f'(x) is not: is a term missing, or multiplied by zero? Write "
                 "f'(x) with the product rule for sin(x**2) * exp(-x) and the chain rule inside each factor.",
    "wrong_sign": "your derivative has the wrong sign everywhere: check each term's sign (the derivative of "
                  "exp(-x) is -exp(-x)).",
    "grad_accumulated": "your derivative is {times} times autograd's: a factor too many, or a term counted more "
                        "than once? Check each factor of the product rule.",
}


HINTS = [
    "f is a product of two factors, each a function of x: which rule differentiates a product?",
    "Each factor is a function of a function of x: differentiate the outside, then multiply by the "
    "derivative of the inside.",
    "Test your formula at a few points in a scratch cell against autograd (a leaf x of a few elements, "
    "f(x).sum().backward(), x.grad) before running the check: a wrong sign or a missing factor shows at once.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
