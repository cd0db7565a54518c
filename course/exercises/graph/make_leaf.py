"""`make_leaf(data)`: a float64 leaf that requires grad, made from any data (a list, an array, a tensor
of any dtype, the caller's own tensor), judged as leaf_from_list's leaf is.
"""
import torch

from ...checks import random_inputs as rand
from ...checks.mistakes import Mistake
from ...checks.read_back import same_length
from ...checks.technique import snapshot
from ...exercise import Exercise
from .leaf_from_list import judge_new_leaf, raised, raised_message


EDGE_CASES = {
    "an empty list": "An empty list is data too: torch.tensor([], dtype=torch.float64) makes a tensor of shape (0,).",
    "a float32 tensor of one number computed from another one (0-d, with a grad_fn)":
        "A 0-d tensor holds one number and has no rows to go through: copy it whole, as any other tensor.",
}


MAKE_LEAF_CASES = [
    "a list of floats",
    "a list of ints",
    "an int64 tensor (one value past 2**24, more than float32 holds exactly)",
    "a float64 tensor",
    "a float32 tensor computed from another one (it has a grad_fn)",
    "a float64 leaf that requires grad",
    "a float64 tensor computed from another one (it has a grad_fn)",
    "an empty list",
    "an int32 tensor",
    "an int8 tensor",
    "a uint8 tensor",
    "a bool tensor",
    "a float16 tensor",
    "a bfloat16 tensor",
    "a float64 tensor of one row",
    "a float32 tensor of one number computed from another one (0-d, with a grad_fn)",
]


def inputs(rng):
    """Data of every kind the text allows, one per entry of MAKE_LEAF_CASES, in every trial: lists, a
    tensor of every dtype but complex, results and leaves that require grad, one row, one number."""
    shape = rand.shape(rng)
    floats = rand.tensor(rng, (rand.integer(rng, 2, 6),), torch.float64, -3.0, 3.0).tolist()
    ints = torch.randint(-9, 10, (rand.integer(rng, 2, 6),), generator=rng).tolist()
    w = rand.tensor(rng, shape, torch.float32, requires_grad=True)
    # float64 tensors that take part in a graph: torch.as_tensor(data, dtype=torch.float64) returns them
    # as they are, so an answer that changes "its" tensor in place changes the caller's.
    w64 = rand.tensor(rng, shape, torch.float64, requires_grad=True)
    large = torch.randint(-9, 10, shape, generator=rng)
    large.view(-1)[0] = 2**24 + 1 + 2 * rand.integer(rng, 0, 1000)  # odd past 2**24: float32 rounds it
    small = torch.randint(-9, 10, shape, generator=rng)
    row = (1, rand.integer(rng, 2, 5))
    return {"cases": [floats, ints, large, rand.tensor(rng, shape, torch.float64), w * 2,
                      rand.tensor(rng, shape, torch.float64, requires_grad=True), w64 * 2,
                      [], small.to(torch.int32), small.to(torch.int8), (small + 9).to(torch.uint8), small > 0,
                      rand.tensor(rng, shape, torch.float16), rand.tensor(rng, shape, torch.bfloat16),
                      rand.tensor(rng, row, torch.float64),
                      (rand.tensor(rng, (), torch.float32, requires_grad=True) * 2)]}


def _shares_memory(got, data) -> bool:
    return isinstance(got, torch.Tensor) and isinstance(data, torch.Tensor) and \
        (got is data or got.untyped_storage().data_ptr() == data.untyped_storage().data_ptr())


def _changed(data, before) -> list[str]:
    """What the answer changed in the caller's data: a list's items, a tensor's values or flags."""
    if isinstance(data, list):  # 1 == 1.0 in Python: an int made a float is a change too
        return ["items"] if [(type(v), v) for v in data] != [(type(v), v) for v in before] else []
    old, grad_fn = before  # torch.equal ignores dtypes: a tensor converted in place (t.data = ...) is a change too
    return [what for what, changed in (
        ("dtype", data.dtype != old.dtype), ("shape", data.shape != old.shape),
        ("values", data.shape == old.shape and not torch.equal(data.detach(), old)),
        ("requires_grad", data.requires_grad != old.requires_grad), ("grad_fn", data.grad_fn is not grad_fn)) if changed]


def call(answer, inputs):
    seen = []
    for data in inputs["cases"]:
        before = (snapshot(data)[0], data.grad_fn) if isinstance(data, torch.Tensor) else list(data)
        try:
            got = answer(data)
        except (NotImplementedError, Mistake):
            raise
        except Exception as error:  # said for the case that raised, which the judge reaches in order
            seen.append(raised(error))
            continue
        seen.append({"tensor": got, "shares_memory": _shares_memory(got, data), "changed_input": _changed(data, before),
                     "data_requires_grad": isinstance(data, torch.Tensor) and data.requires_grad})
    return {"cases": seen}


def judge(seen, expected, inputs):
    cases = same_length(seen["cases"], expected["values"], "results")
    for description, case, want in zip(MAKE_LEAF_CASES, cases, expected["values"]):
        what = f"for {description}, your tensor"
        if "raised" in case and case.get("known") == "math_on_tensor":
            raise Mistake(f"for {description}, your code raised {case['raised'].splitlines()[0]}\n  A tensor of "
                          "several numbers was read as one number: the items of a 2-D tensor are its rows, tensors "
                          "of their own. Copy the tensor whole (detach().clone()), whatever its shape.",
                          str(case.get("kind"))[:40])
        if "raised" in case:
            raise raised_message(description, case, EDGE_CASES.get(description, ""))
        if case["shares_memory"] is not False:
            raise Mistake(f"{what} shares its memory with the tensor you were given: changing one would "
                          "change the other. Make a new tensor with clone() (after detach()).", "shares_memory")
        if case["changed_input"]:
            given = "list" if description.endswith("list") or description.startswith("a list") else "tensor"
            changed = case["changed_input"] if isinstance(case["changed_input"], list) else ["contents"]
            raise Mistake(f"for {description}, your code changed the {given} it was given: its "
                          f"{' and '.join(map(str, changed))}. make_leaf must leave data as it was: build the new "
                          "tensor from a copy.", "input_changed")
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
