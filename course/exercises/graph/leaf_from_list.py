"""`leaf_from_list(values)`: a float64 leaf that requires grad, made from a list of numbers.

The new-leaf judge here is also make_leaf's, which asks the same of any data.
"""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import largest_difference
from ...checks.diagnose import diagnose_tensor
from ...checks.explain_error import explain_error, known_error
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of
from ...checks.read_back import same_length
from ...exercise import Exercise


LEAF_FROM_LIST_CASES = ["a list of ints", "a list of floats", "a list mixing ints and floats", "a list of one number",
                        "an empty list"]


def inputs(rng):
    """Every kind of list the text allows, in each trial: ints (an integer tensor unless told otherwise),
    floats with more digits than float32 keeps, both mixed, one number, and none."""
    ints = torch.randint(-9, 10, (rand.integer(rng, 2, 6),), generator=rng).tolist()
    floats = rand.tensor(rng, (rand.integer(rng, 2, 6),), torch.float64, -3.0, 3.0).tolist()
    mixed = [v if i % 2 else int(v) for i, v in  # an int first, as a list read from a file may start
             enumerate(rand.tensor(rng, (rand.integer(rng, 3, 6),), torch.float64, -9.0, 9.0).tolist())]
    one = rand.tensor(rng, (1,), torch.float64, -3.0, 3.0).tolist()
    return {"cases": [ints, floats, mixed, one, []]}


def call(answer, inputs):
    seen = []
    for values in inputs["cases"]:
        try:
            got = answer(list(values))
        except (NotImplementedError, Mistake):
            raise
        except Exception as error:  # said for the case that raised, which the judge reaches in order
            seen.append(raised(error))
            continue
        seen.append({"tensor": got})
    return {"cases": seen}


def raised(error: Exception) -> dict:
    """What a case that raised sends back: the error in autograd terms, its type, and which known error it is."""
    known = known_error(error)
    return {"raised": explain_error(error), "kind": type(error).__name__, "known": known.key if known else None}


def raised_message(description: str, case: dict, edge: str = "") -> Mistake:
    """A case that raised, said for that case; filling a tensor that already requires grad gets its own fix
    (explain_error's advice, no_grad() for a parameter's update, is for lesson 3's kind of code)."""
    if case.get("known") == "leaf_in_place":
        return Mistake(f"for {description}, your code changed a tensor that already requires grad in place "
                       "(filling it item by item, or +=, *= ...): autograd refuses, since it is a leaf it records. "
                       "Give the tensor its values first and switch requires_grad on last, as torch.tensor(..., "
                       "dtype=torch.float64, requires_grad=True) does in one step.", "in_place_on_leaf")
    return Mistake(f"for {description}, your code raised {case['raised']}{chr(10) + '  ' + edge if edge else ''}",
                   str(case.get("kind"))[:40])


def recorded_step(grad_fn: str | None, data_requires_grad: bool = False, from_list: bool = False) -> str:
    """What made the tensor a result, read from its grad_fn, and the fix for that step."""
    if from_list:  # a list has no history: the operation came after requires_grad was switched on
        return ("Any operation after the tensor requires grad (a conversion, * 1.0, ...) is recorded and gives "
                "a result: let torch.tensor make the tensor with its dtype and requires_grad, and return it "
                "as it is.")
    if grad_fn and grad_fn.startswith("Clone"):
        return ("clone() of a tensor that requires grad is recorded: detach() it first "
                "(.detach().clone()), then require grad.")
    if grad_fn and grad_fn.startswith(("ToCopy", "Copy")) and data_requires_grad:
        return ("data itself requires grad here, so converting it (.double(), .to()) is recorded: "
                "detach() it first, then convert, copy and require grad.")
    if grad_fn and grad_fn.startswith(("ToCopy", "Copy")):
        return ("A conversion after requires_grad (such as .double() or .to()) is recorded: convert the "
                "dtype first, then require grad.")
    return ("An operation on a tensor that requires grad is recorded: start from a detached copy "
            "(.detach()), and switch requires_grad on last.")


def judge_new_leaf(what: str, got, want: torch.Tensor, data_requires_grad: bool = False,
                   from_list: bool = False) -> None:
    """What both leaf exercises ask of the tensor made: float64, data's values, requires grad, a leaf."""
    if isinstance(got, torch.Tensor) and got.dtype != torch.float64 and from_list:
        raise Mistake(f"{what} has dtype {got.dtype}: make it torch.float64, and choose that dtype when "
                      "torch.tensor makes the tensor from the list (a conversion afterwards rounds floats "
                      "through float32 first).", "wrong_dtype")
    if isinstance(got, torch.Tensor) and got.dtype != torch.float64:
        raise Mistake(f"{what} has dtype {got.dtype}: make it torch.float64, whatever the data's own "
                      "dtype (choose the dtype when you create or convert it).", "wrong_dtype")
    if isinstance(got, torch.Tensor) and got.shape != want.shape and not from_list:
        raise Mistake(f"{what} has shape {tuple(got.shape)}, but data has shape {tuple(want.shape)}: keep data's "
                      "shape (no view(-1), flatten(), squeeze() or [...] around it), one number included.",
                      "wrong_shape")
    require(diagnose_tensor(want, got, what))
    flags = flags_of(got)
    if not flags.requires_grad:
        raise Mistake(f"{what} does not require grad: switch requires_grad on for the new tensor.",
                      "no_requires_grad")
    if not flags.is_leaf:
        raise Mistake(f"{what} is not a leaf: it has a grad_fn ({flags.grad_fn}), so its .grad would stay "
                      f"None. {recorded_step(flags.grad_fn, data_requires_grad, from_list)}", "not_leaf")
    if not torch.equal(got, want):
        if torch.equal(got, want.float().double()):
            raise Mistake(f"{what} has the values rounded to float32: the data went through float32 "
                          "(PyTorch's default) before float64. Choose float64 when you first make "
                          "the tensor.", "rounded_float32")
        error, index = largest_difference(got, want)
        raise Mistake(f"{what} does not hold data's values (largest difference {error:.3g} at index "
                      f"{index}): copy the values you were given.", "wrong_values")


# What the edge cases are, said when an answer breaks only there.
EDGE_CASES = {
    "a list of one number": "A list of one number makes a tensor of shape (1,), as torch.tensor([2.5]) does: give "
                            "torch.tensor the whole list, not its first number.",
    "an empty list": "An empty list is a list of numbers too: torch.tensor([], dtype=torch.float64) makes a tensor "
                     "of shape (0,). Give torch.tensor the whole list.",
}


def judge(seen, expected, inputs):
    cases = same_length(seen["cases"], expected["values"], "results")
    for description, case, want in zip(LEAF_FROM_LIST_CASES, cases, expected["values"]):
        edge = EDGE_CASES.get(description, "")
        if "raised" in case:
            raise raised_message(description, case, edge)
        got = case["tensor"]
        if edge and isinstance(got, torch.Tensor) and got.shape != want.shape:
            raise Mistake(f"for {description}, your tensor has shape {tuple(got.shape)}, expected "
                          f"{tuple(want.shape)}. {edge}", "wrong_shape")
        if isinstance(got, torch.Tensor) and got.shape == (1, *want.shape):
            raise Mistake(f"for {description}, your tensor has shape {tuple(got.shape)}, expected {tuple(want.shape)}: "
                          "the list was put inside another list ([values]). Give torch.tensor the list itself.",
                          "wrong_shape")
        judge_new_leaf(f"for {description}, your tensor", got, want, from_list=True)


HINTS = [
    "Three things must hold for the tensor: dtype float64, requires_grad True, and no grad_fn (a leaf).",
    "A list of ints gives an integer tensor, and only floating-point tensors can require grad. "
    "torch.tensor can be told both the dtype and requires_grad when it makes the tensor; a conversion "
    "afterwards is a recorded operation.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
