"""`make_leaf(data)`: a float64 leaf that requires grad, made from any data (a list, an array, a tensor
of any dtype, the caller's own tensor), judged as leaf_from_list's leaf is.
"""
import torch

from ...checks import random_inputs as rand
from ...checks.explain_error import explain_error
from ...checks.mistakes import Mistake
from ...checks.read_back import same_length
from ...checks.technique import snapshot
from ...exercise import Exercise
from .leaf_from_list import judge_new_leaf


MAKE_LEAF_CASES = [
    "a list of floats",
    "a list of ints",
    "an int64 tensor",
    "a float64 tensor",
    "a float32 tensor computed from another one (it has a grad_fn)",
    "a float64 leaf that requires grad",
    "a float64 tensor computed from another one (it has a grad_fn)",
]


def inputs(rng):
    """Data of every kind a learner meets, one per entry of MAKE_LEAF_CASES."""
    shape = rand.shape(rng)
    floats = rand.tensor(rng, shape, torch.float64, -3.0, 3.0).tolist()
    ints = torch.randint(-9, 10, (rand.integer(rng, 2, 6),), generator=rng).tolist()
    w = rand.tensor(rng, shape, torch.float32, requires_grad=True)
    # float64 tensors that take part in a graph: torch.as_tensor(data, dtype=torch.float64) returns them
    # as they are, so an answer that changes "its" tensor in place changes the caller's.
    w64 = rand.tensor(rng, shape, torch.float64, requires_grad=True)
    return {"cases": [floats, ints, torch.randint(-9, 10, shape, generator=rng),
                      rand.tensor(rng, shape, torch.float64), w * 2,
                      rand.tensor(rng, shape, torch.float64, requires_grad=True), w64 * 2]}


def _shares_memory(got, data) -> bool:
    return isinstance(got, torch.Tensor) and isinstance(data, torch.Tensor) and \
        (got is data or got.untyped_storage().data_ptr() == data.untyped_storage().data_ptr())


def call(answer, inputs):
    seen = []
    for data in inputs["cases"]:
        before = (snapshot(data)[0], data.grad_fn) if isinstance(data, torch.Tensor) else None
        try:
            got = answer(data)
        except (NotImplementedError, Mistake):
            raise
        except Exception as error:  # said for the case that raised, which the judge reaches in order
            seen.append({"raised": explain_error(error), "kind": type(error).__name__})
            continue
        changed = before is not None and (data.requires_grad != before[0].requires_grad or
                                          data.grad_fn is not before[1] or not torch.equal(data.detach(), before[0]))
        seen.append({"tensor": got, "shares_memory": _shares_memory(got, data), "changed_input": changed,
                     "data_requires_grad": isinstance(data, torch.Tensor) and data.requires_grad})
    return {"cases": seen}


def judge(seen, expected, inputs):
    cases = same_length(seen["cases"], expected["values"], "results")
    for description, case, want in zip(MAKE_LEAF_CASES, cases, expected["values"]):
        what = f"for {description}, your tensor"
        if "raised" in case:
            raise Mistake(f"for {description}, your code raised {case['raised']}", str(case.get("kind"))[:40])
        if case["shares_memory"] is not False:
            raise Mistake(f"{what} shares its memory with the tensor you were given: changing one would "
                          "change the other. Make a new tensor with clone() (after detach()).", "shares_memory")
        if case["changed_input"] is not False:
            raise Mistake(f"for {description}, your code changed the tensor it was given (its values or "
                          "its requires_grad). make_leaf must leave data as it was: build the new tensor "
                          "from a copy.", "input_changed")
        judge_new_leaf(what, case["tensor"], want, case.get("data_requires_grad") is True)


HINTS = [
    "Three things must hold for the result: dtype float64, requires_grad True, and no grad_fn (a leaf). "
    "The order of the steps decides the last one.",
    "Any operation on a tensor that already requires grad is recorded and gives a result, not a leaf. "
    "Settle the dtype and make the copy while nothing requires grad, and switch requires_grad on last.",
    "data belongs to the caller, and a conversion that changes nothing (.double() of a tensor that is "
    "already float64) hands back data itself, not a copy. Which of your steps still act on data rather "
    "than on a copy made with detach().clone()?",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
