"""`grad_history(f, x, k)`: `.grad` after each of k backward passes, left to accumulate, each row a copy."""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, diagnose_tensor
from ...checks.mistakes import Mistake, require
from ...checks.read_back import listed
from ...checks.technique import NO_AUTOGRAD_GRAD, forbidden, inputs_kept, snapshot, times
from ...exercise import Exercise


SCALAR_FUNCTIONS = [
    ("sum of x * sin(x)", lambda t: (t * torch.sin(t)).sum()),      # x used twice
    ("mean of exp(-x**2)", lambda t: torch.exp(-t**2).mean()),
    ("sum of x**3 + 2x", lambda t: (t**3 + 2 * t).sum()),
]


def inputs(rng):
    """One x per function, so every trial has each shape and dtype the text allows: a vector in float32,
    a matrix in float64, and a single number (0-d) in either."""
    xs = [rand.tensor(rng, rand.shape(rng, ndim=(1, 1)), torch.float32),
          rand.tensor(rng, rand.shape(rng, ndim=(2, 2)), torch.float64),
          rand.tensor(rng, (), rand.float_dtype(rng))]
    return {"xs": xs, "k": rand.integer(rng, 2, 5)}


def call(answer, inputs):
    k = inputs["k"]
    histories, walks = [], []
    for (_, f), x in zip(SCALAR_FUNCTIONS, inputs["xs"]):
        passes = []

        def counted(t, f=f, passes=passes):
            out = f(t)
            if out.requires_grad:  # fires once per backward() that passes through f's output
                out.register_hook(lambda g: passes.append(1))
            return out

        before = snapshot(x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD):
            try:
                histories.append(answer(counted, x, k))
            except RuntimeError as error:
                if x.dim() == 0 and "zero-dimensional tensor" in str(error):
                    raise Mistake(f"for x of shape () (a single number), your code raised RuntimeError: {error}. "
                                  "0-d tensors cannot be joined by torch.cat, which joins along a dimension they "
                                  "already have; torch.stack puts each saved row in a new first dimension, for x "
                                  "of any shape.", "wrong_shape") from None
                raise
        inputs_kept(before, [x], ["x"])
        walks.append(len(passes))
    return {"histories": histories, "walks": walks}


def judge(seen, expected, inputs):
    k, n = inputs["k"], len(SCALAR_FUNCTIONS)
    rows = zip(SCALAR_FUNCTIONS, inputs["xs"], listed(seen["histories"], n, "the functions"), expected["histories"],
               listed(seen["walks"], n, "the functions"))
    for (description, _), x, got, want, walks in rows:
        what = f"the .grad history for f = {description} and x of shape {tuple(x.shape)}"
        if isinstance(got, torch.Tensor) and x.dim() != 1 and got.shape == (k, x.numel()):
            raise Mistake(f"{what} has shape {tuple(got.shape)}, expected {tuple(want.shape)}: each row was "
                          "flattened (a view(-1) or reshape(k, -1)?). Keep each row in x's shape, (k, *x.shape): "
                          "torch.stack of the saved copies, as they are.", "wrong_shape")
        if isinstance(got, torch.Tensor) and got.dim() == x.dim() + 1 and got.shape[1:] == x.shape and got.shape[0] != k:
            raise Mistake(f"{what} has {got.shape[0]} rows, expected k = {k}: one row per backward() call, the "
                          "row saved after each of the k calls (a range that starts or ends one off?).", "row_count")
        require(diagnose_tensor(want, got, what))
        if not close(got, want):
            if close(got, want[-1].expand_as(want)):
                raise Mistake(f"{what}: every row equals the last one. backward() updates x.grad in place, "
                              "and each saved row shares its memory with .grad: x.grad itself, or its detach() or "
                              ".data, none of which is a copy. Save a copy with memory of its own.",
                              "grad_aliased")
            if close(got, want[0].expand_as(want)):
                raise Mistake(f"{what}: every row is the gradient of one call, so .grad was reset between "
                              "the calls. Here, let it accumulate.", "grad_reset")
        require(diagnose_gradient(want, got, what))
        if walks != k:
            raise Mistake(f"backward() went through f {times(walks)}, expected {k} times: call backward() once "
                          "per row and read what .grad has accumulated.", "backward_count")


HINTS = [
    "Work on a leaf copy of x that requires grad, so the caller's x stays as it was.",
    "Loop k times: a new forward pass through f, then backward(). Do not reset anything in between.",
    "If every row comes out the same, ask what your list holds: k different tensors, or k names for "
    "the one .grad tensor that each backward() keeps updating in place?",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
