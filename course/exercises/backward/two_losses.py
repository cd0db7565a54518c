"""`two_losses(x)`: the gradients of two losses that share one graph, computing h only once."""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, diagnose_swapped
from ...checks.mistakes import Mistake, require
from ...checks.read_back import pair
from ...checks.technique import TorchCalls, data_watched, inputs_kept, snapshot, watching_backward
from ...exercise import Exercise


def inputs(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))}


# The generic meaning of this error also offers a new forward pass, which this exercise forbids.
FREED_BETWEEN_LOSSES = ("the second backward() found the graph freed (RuntimeError: Trying to backward through "
                        "the graph a second time): the first backward() frees it. h is computed only once here, "
                        "so keep the graph for the second call: pass retain_graph=True to the first backward().")


class _SinWatch(TorchCalls):
    """The torch calls, noting whether sin was applied to the very x the answer was given (no copy)."""

    def __init__(self, given: torch.Tensor):
        super().__init__()
        self.given, self.on_given = given, False

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") == "sin" and args and args[0] is self.given:
            self.on_given = True
        return super().__torch_function__(func, types, args, kwargs)


H_FROM_GIVEN_X = ("backward() found no graph: h was computed from the x you were given, which does not require "
                  "grad. Compute h from a copy of x that requires grad, and read that copy's .grad.")


def call(answer, inputs):
    x = inputs["x"]
    before = snapshot(x)
    stack, ran = watching_backward()
    try:
        with _SinWatch(x) as torch_calls, stack, data_watched() as data_used:
            got = answer(x)
    except RuntimeError as error:
        if torch_calls.on_given and "does not require grad and does not have a grad_fn" in str(error):
            raise Mistake(H_FROM_GIVEN_X, "f_not_on_copy") from None
        if "backward through the graph a second time" not in str(error):
            raise
        raise Mistake(FREED_BETWEEN_LOSSES, "graph_freed") from None
    inputs_kept(before, [x], ["x"])
    forward_passes = torch_calls.count("sin")
    if forward_passes > 1:
        raise Mistake(f"h was computed {forward_passes} times (torch.sin ran {forward_passes} times): the "
                      "exercise asks for one forward pass. Compute h once, then call backward() from each "
                      "loss, keeping the graph with retain_graph=True for the first.", "forward_repeated")
    same_object = isinstance(got, (tuple, list)) and len(got) == 2 and got[0] is not None and got[0] is got[1]
    return {"result": got, "same_object": same_object, "data_used": bool(data_used),
            "differentiations": len(ran["backward"]) + len(ran["grad"])}


DATA_CUTS_H = ("{which} is wrong, and your code used .data: .data is the tensor's values with no history, so what "
               "is computed from it is cut off the graph and no gradient flows back through it. Compute h from "
               "the copy of x itself.")


def judge(seen, expected, inputs):
    g1, g2 = pair(seen["result"], "grad of loss1, grad of loss2")
    if seen["differentiations"] == 1 and (diagnose_gradient(expected["loss1"], g1) or
                                          diagnose_gradient(expected["loss2"], g2)):
        raise Mistake("backward() ran only once, so .grad holds one gradient: a single backward() from "
                      "loss1 + loss2 gives the gradient of the sum, not each loss's own. Call backward() from "
                      "each loss, keeping the graph for the second.", "one_backward")
    if seen["same_object"]:
        raise Mistake("both gradients are the same tensor object: backward() adds into .grad in place, "
                      "so keep a .clone() of the first one before the second backward().", "grad_aliased")
    require(diagnose_swapped((expected["loss1"], expected["loss2"]), seen["result"],
                             ("the gradient of loss1", "the gradient of loss2")))
    both = expected["loss1"] + expected["loss2"]
    if isinstance(g1, torch.Tensor) and g1.shape == both.shape and not g1.is_complex() and close(g1, both) \
            and not close(expected["loss1"], both):
        raise Mistake("the gradient of loss1 you returned holds both gradients added up: it was read from "
                      "x.grad after the second backward() had added into it (x.grad itself, kept without a "
                      "copy, changes in place: section 4). Keep x.grad.clone() right after the first "
                      "backward().", "grad_aliased")
    for got, want, which in ((g1, expected["loss1"], "the gradient of loss1"),
                             (g2, expected["loss2"], "the gradient of loss2")):
        if seen.get("data_used") and diagnose_gradient(want, got, which):
            raise Mistake(DATA_CUTS_H.format(which=which), "used_data")
    require(diagnose_gradient(expected["loss1"], g1, "the gradient of loss1"))
    _sum_for_mean(g2, expected["loss2"])
    require(diagnose_gradient(expected["loss2"], g2, "the gradient of loss2", stale=expected["loss1"]))


def _sum_for_mean(got, want: torch.Tensor) -> None:
    """n times loss2's gradient, for x of n elements: a .sum() where loss2 takes the mean (any n, not only 2 to 5)."""
    n = want.numel()
    if n > 1 and isinstance(got, torch.Tensor) and got.shape == want.shape and not got.is_complex() and \
            close(got, n * want) and not close(want, torch.zeros_like(want)):
        raise Mistake(f"the gradient of loss2 is {n} times the expected one, and x has {n} elements: loss2 = "
                      "(h**2).mean() divides by them, and a .sum() does not.", "sum_for_mean")


HINTS = [
    "The first backward() frees the graph unless you ask it to keep it, and .grad adds up.",
    "Between the two backward() calls: keep a copy of the first gradient (not the tensor object "
    "itself: it is updated in place), then reset .grad.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
