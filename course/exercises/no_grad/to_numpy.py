"""`to_numpy(t)`: a NumPy snapshot of any tensor, which later changes to the tensor do not reach."""
import numpy as np
import torch

from ...checks import random_inputs as rand
from ...checks.mistakes import Mistake
from ...checks.read_back import entries
from ...checks.technique import inputs_kept, snapshot
from ...exercise import Exercise


TO_NUMPY_CASES = ["a leaf that requires grad", "an intermediate result of a graph",
                  "a tensor that does not require grad", "a 0-d tensor (a single number, such as a loss)",
                  "a transposed tensor (a view whose rows are columns of another)",
                  "another leaf of the first one's shape and dtype, with other values"]


# What .numpy() accepts among floating-point dtypes: NumPy has no bfloat16.
NUMPY_FLOAT_DTYPES = (torch.float16, torch.float32, torch.float64)


def inputs(rng):
    """Each dtype once per trial, in a random order: an answer that copies (or changes t) for
    some dtypes only, as `.to(dtype)` and `torch.as_tensor` do, meets every dtype every time. Then a
    0-d tensor and a non-contiguous one (any tensor means every shape and layout), and a cache keyed
    on the shape and dtype meets the last one."""
    tensors = []
    order = torch.randperm(len(NUMPY_FLOAT_DTYPES), generator=rng).tolist()
    for case, index in zip(TO_NUMPY_CASES, order):
        dtype = NUMPY_FLOAT_DTYPES[index]
        t = rand.tensor(rng, rand.shape(rng), dtype, requires_grad=case != TO_NUMPY_CASES[2])
        tensors.append(torch.sin(t) if case == TO_NUMPY_CASES[1] else t)
    dtype = NUMPY_FLOAT_DTYPES[rand.integer(rng, 0, len(NUMPY_FLOAT_DTYPES) - 1)]
    tensors.append((rand.tensor(rng, (rand.integer(rng, 2, 5),), dtype, requires_grad=True) ** 2).mean())
    dtype = NUMPY_FLOAT_DTYPES[rand.integer(rng, 0, len(NUMPY_FLOAT_DTYPES) - 1)]
    tensors.append(rand.tensor(rng, rand.shape(rng, ndim=(2, 2)), dtype, requires_grad=True).T)
    first = tensors[0]
    tensors.append(rand.tensor(rng, tuple(first.shape), first.dtype, requires_grad=True))
    return {"tensors": tensors}


def call(answer, inputs):
    seen = []
    for i, t in enumerate(inputs["tensors"]):
        before = snapshot(t)
        try:
            got = answer(t)
        except Exception as error:
            if i == 0:  # the first tensor is an ordinary one: the error is said as raised
                raise
            seen.append({"raised": f"{type(error).__name__}: {error}"})
            continue
        if t.requires_grad != before[0].requires_grad:
            # not inputs_kept's advice to copy and requires_grad_(True): .numpy() would refuse that copy
            raise Mistake("your code changed `t.requires_grad` on the tensor it was given: the caller's tensor "
                          "(maybe a parameter that must keep learning) is changed for good. detach() gives a "
                          "tensor without history and leaves t as it is.", "input_changed")
        inputs_kept(before, [t], ["t"])
        entry = {"type": type(got).__name__, "array": None, "follows_t": False}
        if isinstance(got, np.ndarray):
            entry["array"] = got.copy()
            with torch.no_grad():
                t.add_(1.0)   # a later in-place change, like an optimizer step
            entry["follows_t"] = not np.array_equal(got, entry["array"], equal_nan=True)
        seen.append(entry)
    return {"results": seen}


def judge(seen, expected, inputs):
    results = entries(seen, "results", len(TO_NUMPY_CASES))
    for case, got, want in zip(TO_NUMPY_CASES, results, expected["arrays"]):
        if got.get("raised") is not None:
            raise Mistake(f"for {TO_NUMPY_CASES[0]} your function worked, but for {case} it raised "
                          f"{str(got['raised'])[:160]}. t may be any tensor, of any shape and layout: "
                          "t.detach() and .numpy() take every one as it is, and a copy of the result keeps its "
                          "shape.", "raised_on_other_tensor")
        array = got["array"]
        if not isinstance(array, np.ndarray):
            fix = {"list": " .tolist() gives Python lists; .numpy() gives an array.",
                   "Tensor": " It is still a torch.Tensor: end with .numpy()."}.get(got["type"], "")
            raise Mistake(f"for {case}, to_numpy returned a {got['type']}, not a numpy.ndarray.{fix}", "not_an_array")
        if array.shape != want.shape:
            raise Mistake(f"for {case}, the array has shape {array.shape}, expected {want.shape}: keep the tensor's "
                          "shape (.numpy() keeps it, whatever it is: a 0-d tensor gives a 0-d array).", "wrong_shape")
        if array.dtype != want.dtype:
            through = (" Python floats (what .tolist() and .item() give) become float64 in NumPy: keep the tensor's "
                       "own dtype by staying with .numpy()." if array.dtype == np.float64 else "")
            raise Mistake(f"for {case}, the array has dtype {array.dtype}, expected {want.dtype}: keep the tensor's "
                          f"dtype.{through}", "wrong_dtype")
        if not np.array_equal(array, want):
            if case == TO_NUMPY_CASES[-1] and np.array_equal(array, expected["arrays"][0]):
                raise Mistake(f"for {case}, your function returned the first tensor's values: it returns "
                              "something kept from an earlier call (a cache keyed on the shape and dtype?). "
                              "Copy the values of the t of this call.", "keeps_state")
            raise Mistake(f"for {case}, the array's values differ from the tensor's: were they kept from an "
                          "earlier call (a cache?), or rounded through another dtype on the way?", "wrong_value")
        if got["follows_t"] is not False:
            raise Mistake(f"for {case}, your array shares memory with the tensor: after an in-place change to "
                          "t (t.add_(1)), the array changed too. detach() and .numpy() both share storage: the "
                          "snapshot needs a copy of its own.", "shares_memory")


HINTS = [
    "NumPy cannot carry a graph: while autograd records, .numpy() refuses a tensor that requires grad until "
    "it is cut out of it.",
    "Both detach() and .numpy() share storage with the original tensor; a snapshot needs memory of its own.",
    "Of the tensor methods in this lesson, which one gives a tensor memory of its own? Your array must "
    "not be a view of t's storage.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
