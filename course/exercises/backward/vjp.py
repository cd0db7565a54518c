"""`vjp(f, x, v)`: the vector-Jacobian product v^T J of a vector function, through `backward(gradient=v)`."""
import torch

from ...checks import random_inputs as rand
from ...checks.diagnose import diagnose_gradient, shape_of
from ...checks.evaluation_points import WhereEvaluated, far_from_x, finite_difference, used_as_a_tensor
from ...checks.mistakes import Mistake, require
from ...checks.read_back import handed_back_within, returned_again
from ...checks.technique import (NO_AUTOGRAD_GRAD, counting, forbidden, grad_not_left, inputs_kept, snapshot,
                                 weights_kept)
from ...exercise import Exercise


VECTOR_FUNCTIONS = [
    ("sin(x) * x", lambda t: torch.sin(t) * t),
    ("cumsum(x)**2", lambda t: torch.cumsum(t, 0) ** 2),
    ("[sum, sum of squares, product]", lambda t: torch.stack([t.sum(), (t**2).sum(), t.prod()])),
    ("sum(x**3) as a vector of one element", lambda t: (t**3).sum().reshape(1)),
]


def inputs(rng):
    """One x per function, float32 and float64 both in every trial: of 2 to 6 elements for the first three, and
    of one element for the last, whose single output makes v of shape (1,) and J of shape (1, 1)."""
    first = rand.float_dtype(rng)
    other = torch.float64 if first == torch.float32 else torch.float32
    xs = [rand.tensor(rng, (rand.integer(rng, 2, 6),), dtype) for dtype in (first, other, first)]
    xs.append(rand.tensor(rng, (1,), other))
    return {"xs": xs, "vs": [rand.tensor(rng, f(x).shape, x.dtype) for (_, f), x in zip(VECTOR_FUNCTIONS, xs)]}


def _dtypes_passed(ran: list) -> list[str]:
    """The dtype of each tensor given as gradient= (a v cast to another dtype is rounded)."""
    passed = []
    for call in ran:
        given = call.get("grad_tensors")
        for t in given if isinstance(given, (list, tuple)) else [given]:
            if isinstance(t, torch.Tensor):
                passed.append(str(t.dtype))
    return passed


def _coarser(name: str, dtype: torch.dtype) -> bool:
    """Whether the floating dtype called ``name`` ("torch.float32") holds fewer digits than ``dtype``."""
    other = getattr(torch, name.replace("torch.", ""), None)
    return isinstance(other, torch.dtype) and other.is_floating_point and dtype.is_floating_point and \
        torch.finfo(other).eps > torch.finfo(dtype).eps


def call(answer, inputs):
    seen, calls, weighted, elsewhere, far, dtypes = [], [], [], [], [], []
    for (_, f), x, v in zip(VECTOR_FUNCTIONS, inputs["xs"], inputs["vs"]):
        before = snapshot(x, v)
        watched = WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            try:
                seen.append(answer(watched, x, v))
            except (AttributeError, TypeError) as error:
                if (misused := used_as_a_tensor(error)) is not None:
                    raise misused from None
                raise
        weights_kept(before[1], v)
        inputs_kept(before, [x, v], ["x", "v"])
        grad_not_left([x, v], ["x", "v"])
        calls.append(len(ran))
        weighted.append(any(call.get("grad_tensors") is not None for call in ran))
        dtypes.append(_dtypes_passed(ran))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
    return {"vjps": seen, "backward_calls": calls, "gradient_passed": weighted, "evaluated_elsewhere": elsewhere,
            "evaluated_far": far, "gradient_dtypes": dtypes, "returned_again": returned_again(seen)}


VJP_HOW = "Call f once, on a copy of x that requires grad, and pass v to backward()."


def judge(seen, expected, inputs):
    handed_back_within("vjp", [f"y = {d}" for d, _ in VECTOR_FUNCTIONS], seen.get("returned_again"))
    finite_difference(seen, "v^T J", VJP_HOW)
    for i, ((description, _), x, got, want, from_sum, calls) in enumerate(zip(
            VECTOR_FUNCTIONS, inputs["xs"], seen["vjps"], expected["vjps"], expected["sum_grads"],
            seen["backward_calls"], strict=True)):
        if isinstance(got, torch.Tensor) and got.shape == want.shape and \
                diagnose_gradient(from_sum, got) is None and diagnose_gradient(want, got) is not None:
            raise Mistake(f"for y = {description}, your result is the gradient of y.sum(), as if v were all "
                          "ones: pass the vector as backward(gradient=v).", "v_ignored")
        wrong = diagnose_gradient(want, got, f"v^T J for y = {description}, at {shape_of(x)},",
                                  backward_calls=calls)
        rounded = sorted(name for name in set(seen["gradient_dtypes"][i]) if _coarser(name, x.dtype))
        if rounded and not (wrong and wrong.kind == "wrong_dtype"):
            raise Mistake(f"for y = {description}, at {shape_of(x)}, backward() was given gradient= in "
                          f"{rounded[0].replace('torch.', '')}, coarser than v's own {str(x.dtype).replace('torch.', '')}: "
                          "the conversion rounds v's values, so v^T J is off. Pass v as it was given.",
                          "gradient_dtype")
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
