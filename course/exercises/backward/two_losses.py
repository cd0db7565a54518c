"""`two_losses(x)`: the gradients of two losses that share one graph, computing h only once."""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, diagnose_swapped, shape_of
from ...checks.mistakes import Mistake, require
from ...checks.read_back import entries, pair
from ...checks.technique import (GRAD_RETURNS_A_TUPLE, TorchCalls, data_watched, grad_not_left, inputs_kept,
                                 snapshot, watching_backward)
from ...exercise import Exercise


def inputs(rng):
    """Two x's in every trial, so an answer right for one shape or dtype only meets the other: one of two
    dimensions ((m, n), both 2 to 4: len(x) is not the number of elements), and a 0-d one or one of one
    dimension of 1 to 3 elements, in the other dtype."""
    first = rand.float_dtype(rng)
    other = torch.float64 if first == torch.float32 else torch.float32
    rows, columns = rand.integer(rng, 2, 4), rand.integer(rng, 2, 4)
    small = ((), (rand.integer(rng, 1, 3),))[rand.integer(rng, 0, 1)]
    return {"xs": [rand.tensor(rng, (rows, columns), first), rand.tensor(rng, small, other)]}


# The generic meaning of this error also offers a new forward pass, which this exercise forbids.
FREED_BETWEEN_LOSSES = ("the second differentiation found the graph freed (RuntimeError: Trying to backward through "
                        "the graph a second time): the first backward() (or torch.autograd.grad) frees it. h is "
                        "computed only once here, so keep the graph for the second call: pass retain_graph=True to "
                        "the first backward() (or torch.autograd.grad).")


ZEROED_BEFORE_BACKWARD = ("your code called zero_() on the copy's .grad before the first backward(): .grad is None "
                          "until a backward() reaches the copy, so there is nothing to zero yet. Reset only between "
                          "the two backward() calls, where .grad holds loss1's gradient.")


CLONED_NONE_BEFORE = ("your code called .clone() on the copy's .grad before the first backward(): .grad is None until "
                      "a backward() reaches the copy. Clone it right after the first backward(), where it holds "
                      "loss1's gradient.")


CLONED_NONE_AFTER = ("your code called .clone() on a .grad that is None: was it set to None before being cloned? Clone "
                     "the copy's .grad right after the first backward(), then reset it to None.")


ZERO_D_LEN = ("your code raised TypeError: {error}. Here x is 0-d, a single number of shape (), which has no len() "
              "and no rows. (h**2).mean() divides by the number of elements of any x, whatever its shape: take "
              ".mean() itself.")


class _SinWatch(TorchCalls):
    """The torch calls, noting what sin was applied to: the very x the answer was given (no copy), or other
    tensors (the answer's copy, kept to read its .grad afterwards)."""

    def __init__(self, given: torch.Tensor):
        super().__init__()
        self.given, self.on_given, self.on = given, False, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") == "sin" and args and isinstance(args[0], torch.Tensor):
            self.on_given |= args[0] is self.given
            self.on.append(args[0])
        return super().__torch_function__(func, types, args, kwargs)

    def on_a_plain_copy(self) -> bool:
        """sin only ever met tensors other than the given x that do not require grad: a copy without requires_grad."""
        return bool(self.on) and not self.on_given and not any(t.requires_grad for t in self.on)

    def copy_filled(self) -> bool:
        """Whether backward() filled the .grad of a leaf that h was computed from (the answer's copy)."""
        return any(t.is_leaf and t.requires_grad and t.grad is not None for t in self.on if t is not self.given)


H_FROM_PLAIN_COPY = ("backward() found no graph: h was computed from a copy of x that does not require grad (made "
                     "without .requires_grad_(True), or a .detach() or .data of one), so nothing was recorded. Make "
                     "the copy with x.detach().clone().requires_grad_(True), and compute h from it.")


H_FROM_GIVEN_X = ("backward() found no graph: h was computed from the x you were given, which does not require "
                  "grad. Compute h from a copy of x that requires grad, and read that copy's .grad.")


def _shares_memory(got) -> bool:
    """Two different tensor objects over the same numbers: x.grad.data, x.grad.detach() or a view of x.grad
    kept as the first gradient, then x.grad changed in place (zero_(), the second backward())."""
    if not (isinstance(got, (tuple, list)) and len(got) == 2 and all(isinstance(g, torch.Tensor) for g in got)):
        return False
    first, second = got
    return first is not second and first.numel() > 0 and second.numel() > 0 and \
        first.untyped_storage().data_ptr() == second.untyped_storage().data_ptr()


def _one_run(answer, x: torch.Tensor) -> dict:
    before = snapshot(x)
    stack, ran = watching_backward()
    try:
        with _SinWatch(x) as torch_calls, stack, data_watched() as data_used:
            got = answer(x)
    except RuntimeError as error:
        if torch_calls.on_given and "does not require grad and does not have a grad_fn" in str(error):
            raise Mistake(H_FROM_GIVEN_X, "f_not_on_copy") from None
        if torch_calls.on_a_plain_copy() and "does not require grad and does not have a grad_fn" in str(error):
            raise Mistake(H_FROM_PLAIN_COPY, "f_not_on_copy") from None
        if "backward through the graph a second time" not in str(error):
            raise
        raise Mistake(FREED_BETWEEN_LOSSES, "graph_freed") from None
    except AttributeError as error:
        if "'NoneType' object has no attribute 'zero_'" in str(error) and not ran["backward"] + ran["grad"]:
            raise Mistake(ZEROED_BEFORE_BACKWARD, "zeroed_none") from None
        if "'NoneType' object has no attribute 'clone'" in str(error):
            raise Mistake(CLONED_NONE_BEFORE if not ran["backward"] + ran["grad"] else CLONED_NONE_AFTER,
                          "cloned_none") from None
        raise
    except TypeError as error:
        if "0-d tensor" in str(error) and x.dim() == 0:
            raise Mistake(ZERO_D_LEN.format(error=error), "loop_over_0d") from None
        raise
    inputs_kept(before, [x], ["x"])
    grad_not_left([x], ["x"])
    forward_passes = torch_calls.count("sin")
    if forward_passes > 1:
        raise Mistake(f"h was computed {forward_passes} times (torch.sin ran {forward_passes} times): the "
                      "exercise asks for one forward pass. Compute h once, then call backward() from each "
                      "loss, keeping the graph with retain_graph=True for the first.", "forward_repeated")
    same_object = isinstance(got, (tuple, list)) and len(got) == 2 and got[0] is not None and got[0] is got[1]
    return {"result": got, "same_object": same_object, "shared_memory": _shares_memory(got),
            "data_used": bool(data_used), "differentiations": len(ran["backward"]) + len(ran["grad"]),
            "autograd_grad_calls": len(ran["grad"]), "copy_filled": torch_calls.copy_filled()}


def call(answer, inputs):
    return {"runs": [_one_run(answer, x) for x in inputs["xs"]]}


DATA_CUTS_H = ("{which} is wrong, and your code used .data: .data is the tensor's values with no history, so what "
               "is computed from it is cut off the graph and no gradient flows back through it. Compute h from "
               "the copy of x itself.")


SHARED_MEMORY = ("your two gradients are two tensor objects over the same memory: x.grad.data, x.grad.detach() "
                 "and views such as x.grad[:] share x.grad's numbers, so zero_() and the second backward(), which "
                 "change x.grad in place, changed your first gradient too. Keep x.grad.clone(), which has memory "
                 "of its own.")


def judge(seen, expected, inputs):
    runs = entries(seen, "runs", len(inputs["xs"]))
    for x, run, want1, want2 in zip(inputs["xs"], runs, expected["loss1"], expected["loss2"], strict=True):
        _judge_run(run, want1, want2, x)


def _judge_run(seen, want1, want2, x: torch.Tensor) -> None:
    at = f" (for {shape_of(x)})"
    g1, g2 = pair(seen["result"], "grad of loss1, grad of loss2")
    calls = seen["differentiations"]
    if seen.get("autograd_grad_calls") and any(isinstance(g, (list, tuple)) and len(g) == 1 for g in (g1, g2)):
        raise Mistake(f"a gradient you returned is a sequence of one tensor, not a tensor. {GRAD_RETURNS_A_TUPLE}",
                      "grad_tuple")
    if calls == 1 and (diagnose_gradient(want1, g1) or diagnose_gradient(want2, g2)):
        raise Mistake("backward() ran only once, so .grad holds one gradient: a single backward() from "
                      "loss1 + loss2 gives the gradient of the sum, not each loss's own. Call backward() from "
                      "each loss, keeping the graph for the second.", "one_backward")
    if seen["same_object"]:
        raise Mistake("both gradients are the same tensor object: backward() adds into .grad in place, "
                      "so keep a .clone() of the first one before the second backward().", "grad_aliased")
    if seen.get("shared_memory") and (diagnose_gradient(want1, g1) or diagnose_gradient(want2, g2)):
        raise Mistake(SHARED_MEMORY, "grad_shares_memory")
    require(diagnose_swapped((want1, want2), seen["result"], ("the gradient of loss1", "the gradient of loss2")))
    both = want1 + want2
    if _matches(g1, both) and not close(want1, both):
        raise Mistake("the gradient of loss1 you returned holds both gradients added up: it was read from "
                      "x.grad after the second backward() had added into it (x.grad itself, kept without a "
                      "copy, changes in place: section 3). Keep x.grad.clone() right after the first "
                      "backward().", "grad_aliased")
    for got, want, which in ((g1, want1, "the gradient of loss1"), (g2, want2, "the gradient of loss2")):
        if seen.get("data_used") and diagnose_gradient(want, got, which):
            raise Mistake(DATA_CUTS_H.format(which=which), "used_data")
    if (g1 is None or g2 is None) and seen.get("copy_filled"):
        raise Mistake(f"{'the gradient of loss1' if g1 is None else 'the gradient of loss2'} is None, yet backward() "
                      "filled the .grad of the copy h was computed from: return that copy's .grad (the x you were "
                      "given keeps no gradient).", "returned_none")
    _mean_for_sum(g1, want1, x)
    require(diagnose_gradient(want1, g1, "the gradient of loss1" + at, backward_calls=calls))
    _sum_for_mean(g2, want2, x)
    require(diagnose_gradient(want2, g2, "the gradient of loss2" + at, stale=want1, backward_calls=calls))


def _matches(got, want: torch.Tensor) -> bool:
    return isinstance(got, torch.Tensor) and got.shape == want.shape and not got.is_complex() and close(got, want)


def _mean_for_sum(got, want: torch.Tensor, x: torch.Tensor) -> None:
    """1/n of loss1's gradient, for x of n elements: a .mean() where loss1 takes the sum."""
    n = want.numel()
    if n > 1 and _matches(got, want / n) and not close(want, want / n):
        raise Mistake(f"the gradient of loss1 is 1/{n} of the expected one, for {shape_of(x)}: loss1 = h.sum() "
                      "adds the elements up, and a .mean() divides by their number.", "mean_for_sum")


def _sum_for_mean(got, want: torch.Tensor, x: torch.Tensor) -> None:
    """loss2's gradient times n / k: a .sum() (k = 1) or a sum divided by len(x) (k = the number of rows) where
    loss2 = (h**2).mean() divides by all n elements."""
    n = want.numel()
    if n <= 1 or not isinstance(got, torch.Tensor) or close(want, torch.zeros_like(want)):
        return
    if _matches(got, n * want):
        raise Mistake(f"the gradient of loss2 is {n} times the expected one, and x has {n} elements ({shape_of(x)}): "
                      "loss2 = (h**2).mean() divides by them, and a .sum() does not.", "sum_for_mean")
    rows = x.shape[0]
    if x.dim() > 1 and rows != n and _matches(got, (n / rows) * want):
        raise Mistake(f"the gradient of loss2 is {n // rows} times the expected one, for {shape_of(x)}: the sum "
                      f"was divided by len(x) = {rows}, the number of rows, not by the {n} elements that "
                      "(h**2).mean() divides by (x.numel()). Take .mean() itself.", "sum_for_mean")
    for k in range(1, 33):  # a count typed as a number, a size of the lesson's examples
        if k != n and _matches(got, (n / k) * want):
            raise Mistake(f"the gradient of loss2 is {n}/{k} of the expected one, for {shape_of(x)}: the sum was "
                          f"divided by {k}, not by the {n} elements of this x that (h**2).mean() divides by. Take "
                          ".mean() itself, which counts the elements of every x.", "sum_for_mean")


HINTS = [
    "The first backward() frees the graph unless you ask it to keep it, and .grad adds up.",
    "Between the two backward() calls: keep a copy of the first gradient (not the tensor object "
    "itself: it is updated in place), then reset .grad.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
