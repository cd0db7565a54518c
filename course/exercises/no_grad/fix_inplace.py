"""`fix_inplace(x)`: the lesson's `squash_in_place` without the in-place step that breaks backward(): the same
values, and the gradient of a random weighting of them, for a 2-D x of any size.
"""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, diagnose_tensor, diagnose_values
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of
from ...checks.read_back import entries
from ...checks.technique import TorchCalls, data_watched, inputs_kept, snapshot
from ...exercise import Exercise


FIX_INPLACE_WIDTH = 3  # the lesson's example's: a width copied from it fits the first x only
LARGE = (200.0, 400.0)  # |x| where exp(2 * (2x + 1)) is inf even in float64: tanh through exp gives NaN there


def inputs(rng):
    """Three x's with other numbers of rows and columns: the first as wide as the lesson's example, the
    second wider, the third narrower (a single column, or two), so that a size copied from the example
    (a mask of 3 values, a slice up to column 3) fails on one of them. The first holds a large positive
    and a large negative value outside column 0: any values means those too, where a tanh written
    through exp overflows."""
    dtype = rand.float_dtype(rng)
    rows = rand.integer(rng, 1, 4)
    other_rows = rand.integer(rng, 1, 3)
    other_rows += other_rows >= rows
    shapes = ((rows, FIX_INPLACE_WIDTH), (other_rows, rand.integer(rng, FIX_INPLACE_WIDTH + 1, 6)),
              (rand.integer(rng, 1, 4), rand.integer(rng, 1, FIX_INPLACE_WIDTH - 1)))
    cases = []
    for shape in shapes:
        # v weighs each output, as backward(gradient=v) would: the check's backward covers every element.
        cases.append({"x": rand.tensor(rng, shape, dtype, requires_grad=True), "v": rand.tensor(rng, shape, dtype)})
    x = cases[0]["x"]
    with torch.no_grad():
        for column, sign in ((1, 1.0), (2, -1.0)):
            x[rand.integer(rng, 0, rows - 1), column] = sign * float(rand.tensor(rng, (), torch.float64, *LARGE))
    return {"cases": cases}


def _fix_inplace_case(answer, x, v):
    before = snapshot(x)
    with data_watched() as data_used, TorchCalls() as torch_calls:
        y = answer(x)
    inputs_kept(before, [x], ["x"])
    dy_dx, backward_error = None, None
    if isinstance(y, torch.Tensor) and y.requires_grad and y.shape == x.shape and y.is_floating_point():
        try:
            (dy_dx,) = torch.autograd.grad(y, x, v.to(y.dtype), allow_unused=True)
        except RuntimeError as error:
            if "inplace operation" not in str(error):
                raise
            backward_error = str(error).split(" Hint:")[0].rstrip(".")
    return {"y": y, "dy_dx": dy_dx, "backward_error": backward_error, "used_data": bool(data_used),
            "used_detach": torch_calls.count("detach") + torch_calls.count("detach_") > 0, "raised": None}


def call(answer, inputs):
    seen, errors = [], []
    for case in inputs["cases"]:
        try:
            seen.append(_fix_inplace_case(answer, case["x"], case["v"]))
        except Mistake:
            raise
        except Exception as error:  # judged below if the answer ran on an x of another shape
            errors.append(error)
            seen.append({"raised": f"{type(error).__name__}: {error}"})
    if len(errors) == len(seen):
        raise errors[0]
    return {"cases": seen}


def _shape_hard_coded(cases, seen) -> None:
    """Right for an x of one shape, raised or shaped wrong for another: a size fixed in the code."""
    shapes = [tuple(case["x"].shape) for case in cases]
    ran = [shape for shape, got in zip(shapes, seen) if got.get("raised") is None
           and isinstance(got.get("y"), torch.Tensor) and tuple(got["y"].shape) == shape]
    if not ran:
        return
    fixed = ("a size your code fixes instead of taking it from x (a tensor of 3 values fits an x of 3 columns "
             "only). x may have any number of rows and columns: take every size from x itself.")
    for shape, got in zip(shapes, seen):
        if got.get("raised") is not None:
            raise Mistake(f"for an x of shape {ran[0]} your function ran, but for an x of shape {shape} it raised "
                          f"{str(got['raised'])[:200]}: {fixed}", "wrong_shape")
        y = got.get("y")
        if isinstance(y, torch.Tensor) and tuple(y.shape) != shape:
            raise Mistake(f"for an x of shape {ran[0]} your result has x's shape, but for an x of shape {shape} "
                          f"it has shape {tuple(y.shape)}: {fixed}", "wrong_shape")


def judge(seen, expected, inputs):
    cases = inputs["cases"]
    got_cases = entries(seen, "cases", len(cases))
    if not all(isinstance(got, dict) for got in got_cases):
        raise Mistake("the check could not read what your function did: return what the exercise asks for.",
                      "unreadable")
    _shape_hard_coded(cases, got_cases)
    for case, got, want in zip(cases, got_cases, expected["cases"]):
        if got.get("raised") is not None:
            raise Mistake(f"for an x of shape {tuple(case['x'].shape)}, your function raised "
                          f"{str(got['raised'])[:200]}.", "raised")
        _fix_inplace_case_judged(got, want, case["x"])


def _overflow_judged(x: torch.Tensor, got, what: str) -> None:
    """NaN or inf where x is large: a formula through exp overflowed, where torch.tanh does not."""
    if not isinstance(got, torch.Tensor) or got.shape != x.shape or not got.is_floating_point():
        return
    bad = ~torch.isfinite(got.detach())
    if not bad.any():
        return
    large = x.detach().abs() >= LARGE[0]
    where = (bad & large).nonzero()
    if len(where):
        index = tuple(int(i) for i in where[0])
        raise Mistake(f"{what} holds {'NaN' if got.detach()[index].isnan() else 'inf'} at index {index}, where x is "
                      f"{float(x.detach()[index]):.4g}: x may hold any values, and a formula through exp overflows "
                      "for large ones (exp is inf past about 88 in float32, 709 in float64, and inf / inf is NaN). "
                      "torch.tanh gives tanh for every x.", "overflow")


def _fix_inplace_case_judged(seen, expected, x):
    y, dy_dx = seen.get("y"), seen.get("dy_dx")
    require(diagnose_tensor(expected["y"], y, "the result"))
    _overflow_judged(x, y, "your result")
    require(diagnose_values(expected["y"], y, "the result"))
    if flags_of(y).grad_fn is None:
        raise Mistake("the result has no grad_fn, so no gradient can reach x: it was cut off the graph "
                      "(detach(), no_grad(), or NumPy on the way?). Keep every step a tensor operation "
                      "that autograd records.", "cut_off_graph")
    if seen["backward_error"] is not None and seen["used_data"] is True:
        raise Mistake("your function uses .data, which the exercise rules out: .data hides an in-place change "
                      "from autograd's version counter without undoing it, so backward() would use changed values "
                      "without a word. Here another in-place step was not hidden, and backward() through your "
                      "result still fails: PyTorch says: " + str(seen["backward_error"])[:300] + ". Make the step "
                      "that changes the saved tensor out of place instead, without .data.", "data_bypass")
    if seen["backward_error"] is not None:
        raise Mistake("backward() through your result fails: a tensor was changed in place after autograd saved "
                      "it for backward. PyTorch says: " + str(seen["backward_error"])[:300] + ". Find the "
                      "operation that saved it, and make the step that changes it afterwards out of place "
                      "(or give that step a copy).", "inplace_saved")
    if seen["used_data"] is not False:
        raise Mistake("your function uses .data: that hides the in-place change from the version counter, so "
                      "backward() runs, on values it did not save, and the gradient is wrong without a word. "
                      "Make the offending step out of place instead.", "data_bypass")
    if seen.get("used_detach") is True:
        raise Mistake("your function calls detach(), which the exercise rules out: no gradient flows through a "
                      "detached tensor, and since it shares the memory of the tensor it came from, a change made "
                      "through it is hidden from autograd too. Keep every step recorded, and make the offending "
                      "step out of place instead.", "detach_bypass")
    if dy_dx is None:
        raise Mistake("the result does not depend on the x you were given: it was built from a copy (a new "
                      "leaf, cut off from x). Compute it from x itself.", "copy_of_x")
    what = "the gradient that backward() through your result puts in x"
    _overflow_judged(x, dy_dx, what)
    if diagnose_tensor(expected["dy_dx"], dy_dx) is None and close(dy_dx, expected["zeroing_unrecorded"]) \
            and not close(dy_dx, expected["dy_dx"]):
        raise Mistake(f"{what} is not zero in column 0, though your result's column 0 is always 0: the step that "
                      "zeroes it was not recorded (under no_grad(), or through .data or detach()), so backward() "
                      "flows as if column 0 still held 3 * tanh(...). Keep that step recorded: an in-place step on "
                      "a tensor no backward step saved is harmless.", "zeroing_unrecorded")
    if diagnose_tensor(expected["dy_dx"], dy_dx) is None and expected["dy_dx"].any() and not dy_dx.any():
        raise Mistake(f"{what} is all zeros: your result has the right values, but none of them reaches x "
                      "through a recorded step (were they computed under no_grad() or from a copy of x, then "
                      "joined to x by a step whose gradient is zero, such as x * 0?). Keep every step of the "
                      "computation recorded, and make only the offending in-place step out of place.",
                      "no_gradient")
    require(diagnose_gradient(expected["dy_dx"], dy_dx, what))


HINTS = [
    "Run the given function and backward() once, and read PyTorch's message: which operation's output "
    "does it name, and at which version?",
    "That operation saved its output for backward. Every in-place step on that same tensor afterwards "
    "bumps its version; in-place steps on tensors nobody saved are harmless.",
    "Only the steps that change the saved tensor matter, and the saved value must stay as it was saved: "
    ".data only hides the change from autograd, and no_grad() does not even hide it.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
