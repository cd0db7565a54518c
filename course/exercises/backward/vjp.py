"""`vjp(f, x, v)`: the vector-Jacobian product v^T J of a vector function, through `backward(gradient=v)`."""
import torch

from ...checks import random_inputs as rand
from ...checks.diagnose import diagnose_gradient
from ...checks.evaluation_points import WhereEvaluated, far_from_x, finite_difference
from ...checks.mistakes import Mistake, require
from ...checks.technique import NO_AUTOGRAD_GRAD, counting, forbidden, inputs_kept, snapshot, weights_kept
from ...exercise import Exercise


VECTOR_FUNCTIONS = [
    ("sin(x) * x", lambda t: torch.sin(t) * t),
    ("cumsum(x)**2", lambda t: torch.cumsum(t, 0) ** 2),
    ("[sum, sum of squares, product]", lambda t: torch.stack([t.sum(), (t**2).sum(), t.prod()])),
]


def inputs(rng):
    x = rand.tensor(rng, (rand.integer(rng, 2, 6),), rand.float_dtype(rng))
    return {"x": x, "vs": [rand.tensor(rng, f(x).shape, x.dtype) for _, f in VECTOR_FUNCTIONS]}


def call(answer, inputs):
    x, seen, calls, weighted, elsewhere, far = inputs["x"], [], [], [], [], []
    for (_, f), v in zip(VECTOR_FUNCTIONS, inputs["vs"]):
        before = snapshot(x, v)
        watched = WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            seen.append(answer(watched, x, v))
        weights_kept(before[1], v)
        inputs_kept(before, [x, v], ["x", "v"])
        calls.append(len(ran))
        weighted.append(any(call.get("grad_tensors") is not None for call in ran))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
    return {"vjps": seen, "backward_calls": calls, "gradient_passed": weighted, "evaluated_elsewhere": elsewhere,
            "evaluated_far": far}


VJP_HOW = "Call f once, on a copy of x that requires grad, and pass v to backward()."


def judge(seen, expected, inputs):
    finite_difference(seen, "v^T J", VJP_HOW)
    for i, ((description, _), got, want, from_sum, calls) in enumerate(zip(
            VECTOR_FUNCTIONS, seen["vjps"], expected["vjps"], expected["sum_grads"], seen["backward_calls"],
            strict=True)):
        if isinstance(got, torch.Tensor) and got.shape == want.shape and \
                diagnose_gradient(from_sum, got) is None and diagnose_gradient(want, got) is not None:
            raise Mistake(f"for y = {description}, your result is the gradient of y.sum(), as if v were all "
                          "ones: pass the vector as backward(gradient=v).", "v_ignored")
        wrong = diagnose_gradient(want, got, f"v^T J for y = {description}", backward_calls=calls)
        far_from_x(seen, i, wrong, VJP_HOW)
        require(wrong)
    if not all(seen["gradient_passed"]):
        raise Mistake("your v^T J is right, but backward() was never given gradient=v: the exercise is about "
                      "that argument. (y * v).sum().backward() gives the same numbers; here, pass v to "
                      "backward() itself.", "gradient_arg_unused")


HINTS = [
    "y = f(x) is a vector, so backward() needs to be told how to weight each output.",
    "backward() takes that weighting as its gradient= argument; the result lands in .grad of a "
    "copy of x that requires grad.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
