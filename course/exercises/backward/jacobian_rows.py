"""`jacobian_rows(f, x)`: the Jacobian of a vector function, one row per backward pass."""
import torch
from torch.overrides import TorchFunctionMode

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_aliased_rows, diagnose_gradient, shape_of
from ...checks.evaluation_points import WhereEvaluated, far_from_x, finite_difference, used_as_a_tensor
from ...checks.mistakes import Mistake, require
from ...checks.read_back import handed_back_within, returned_again
from ...checks.technique import GRAD_RETURNS_A_TUPLE, forbidden, grad_not_left, inputs_kept, snapshot, watching_backward
from ...exercise import Exercise


JACOBIAN_FUNCTIONS = [
    ("x * x.sum()", lambda t: t * t.sum()),
    ("[sin(x0*x1), x0 + x1**2, sum(x**3)]", lambda t: torch.stack([torch.sin(t[0] * t[1]), t[0] + t[1] ** 2,
                                                                  (t**3).sum()])),
    ("softmax(x)", lambda t: torch.softmax(t, 0)),
    ("sum(x**2) as a vector of one element", lambda t: (t**2).sum().reshape(1)),
]


def inputs(rng):
    """One x per function, float32 and float64 both in every trial. The second function has 3 outputs and its x
    2, 4 or 5 elements, never 3, so a loop over x's elements cannot pass it; the last has one output and its x
    one element, so the Jacobian is 1 x 1 (one row, one column) and nothing may squeeze it."""
    first = rand.float_dtype(rng)
    other = torch.float64 if first == torch.float32 else torch.float32
    n = rand.integer(rng, 2, 5)
    sizes = (rand.integer(rng, 2, 5), 4 if n == 3 else n, rand.integer(rng, 2, 5), 1)
    return {"xs": [rand.tensor(rng, (size,), dtype) for size, dtype in zip(sizes, (first, other, first, other))]}


class _TensorOfTensors(TorchFunctionMode):
    """Notes torch.tensor() given a list holding tensors (the rows), which it cannot take."""

    def __init__(self):
        super().__init__()
        self.seen = False

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") == "tensor" and args and isinstance(args[0], (list, tuple)) and \
                any(isinstance(item, torch.Tensor) for item in args[0]):
            self.seen = True
        return func(*args, **(kwargs or {}))


TENSOR_OF_ROWS = ("your code raised ValueError: {error}. torch.tensor() was given a list of tensors (the rows): it "
                  "builds a tensor from Python numbers and cannot take tensors of several elements. torch.stack(rows) "
                  "makes one tensor of them, a row each.")


ZEROED_BEFORE_BACKWARD = ("your code called zero_() on the copy's .grad before the first row's backward(): .grad is "
                          "None until a backward() reaches the copy, so there is nothing to zero yet. Set x.grad = "
                          "None before each row instead (or zero it only when it is not None).")


def call(answer, inputs):
    seen, calls, elsewhere, far = [], [], [], []
    for (_, f), x in zip(JACOBIAN_FUNCTIONS, inputs["xs"]):
        before = snapshot(x)
        watched = WhereEvaluated(f, x)
        with forbidden(torch.autograd.functional, "jacobian",
                       "build the Jacobian yourself, one row per output element, not with jacobian()."):
            stack, ran = watching_backward()
            with stack, _TensorOfTensors() as rows_in_tensor:
                try:
                    seen.append(answer(watched, x))
                except IndexError as error:
                    _past_the_outputs(error, f, x)
                    raise
                except (AttributeError, TypeError) as error:
                    if (misused := used_as_a_tensor(error)) is not None:
                        raise misused from None
                    if "'NoneType' object has no attribute 'zero_'" in str(error):
                        raise Mistake(ZEROED_BEFORE_BACKWARD, "zeroed_none") from None
                    if "but got tuple" in str(error) and ran["grad"]:
                        raise Mistake(f"your code raised TypeError: {error}. {GRAD_RETURNS_A_TUPLE}",
                                      "grad_tuple") from None
                    if any(isinstance(c.get("grad_tensors"), (int, float)) for c in ran["backward"]):
                        raise Mistake(f"your code raised TypeError: {error}. backward() was given a number as its "
                                      "first argument, gradient=, which weights the output's elements (a tensor of "
                                      "y's shape) and does not pick one: to differentiate the element y[i], call "
                                      "y[i].backward(retain_graph=True).", "gradient_is_index") from None
                    raise
                except ValueError as error:
                    if rows_in_tensor.seen and "only one element tensors" in str(error):
                        raise Mistake(TENSOR_OF_ROWS.format(error=error), "tensor_of_rows") from None
                    raise
        inputs_kept(before, [x], ["x"])
        grad_not_left([x], ["x"])
        calls.append(len(ran["backward"]) + len(ran["grad"]))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
    return {"jacobians": seen, "calls": calls, "evaluated_elsewhere": elsewhere, "evaluated_far": far,
            "returned_again": returned_again(seen)}


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


def judge(seen, expected, inputs):
    handed_back_within("jacobian_rows", [f"f = {d}" for d, _ in JACOBIAN_FUNCTIONS], seen.get("returned_again"))
    finite_difference(seen, "the Jacobian", JACOBIAN_HOW)
    for i, ((description, _), x, got, want, calls) in enumerate(zip(
            JACOBIAN_FUNCTIONS, inputs["xs"], seen["jacobians"], expected["jacobians"], seen["calls"], strict=True)):
        what = f"the Jacobian of f = {description}, at {shape_of(x)},"
        if isinstance(got, torch.Tensor) and got.shape == want.shape and want.shape[0] > 1 and \
                diagnose_gradient(want.cumsum(0), got) is None:
            raise Mistake(f"for f = {description}, each row of your Jacobian includes the rows above it: "
                          "x.grad accumulated across backward() calls. Reset it before each row.",
                          "grad_accumulated")
        require(diagnose_aliased_rows(want, got, what))
        _sum_of_rows(what, got, want)
        _rows_over_inputs(description, got, want, x.numel())
        wrong = diagnose_gradient(want, got, what)
        far_from_x(seen, i, wrong, JACOBIAN_HOW)
        require(wrong)
        rows = want.shape[0]
        if calls != rows:
            raise Mistake(f"for f = {description}, the Jacobian has {rows} rows but your code differentiated "
                          f"{calls} time(s): build it one row per call, one backward() (or "
                          "torch.autograd.grad) for each output element.", "not_row_by_row")


HINTS = [
    "Row i of the Jacobian is the gradient of the i-th output y[i] with respect to x.",
    "One backward() per output element on the same graph: keep the graph between calls, and start "
    "each row from an empty .grad.",
    "Copy each row out of .grad before the next call, then stack the rows.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
