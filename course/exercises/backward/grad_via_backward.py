"""`grad_via_backward(f, x)`: the gradient of a scalar f at x, from one call to `backward()`."""
import torch

from ...checks import random_inputs as rand
from ...checks.diagnose import diagnose_gradient
from ...checks.evaluation_points import WhereEvaluated, far_from_x, finite_difference
from ...checks.mistakes import Mistake, require
from ...checks.technique import NO_AUTOGRAD_GRAD, counting, forbidden, inputs_kept, snapshot
from ...exercise import Exercise


SCALAR_FUNCTIONS = [
    ("sum of sin(x) * x**2", lambda t: (torch.sin(t) * t**2).sum()),
    ("mean of exp(-x**2)", lambda t: torch.exp(-t**2).mean()),
    ("log-sum-exp", lambda t: torch.logsumexp(t.reshape(-1), 0)),
]


def inputs(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))}


STALE_LEAF = ("f was called on a leaf whose .grad already held a gradient from before: a tensor kept from an "
              "earlier call (in a global, a default argument or an attribute)? backward() adds into .grad, so "
              "{effect}. Make a new copy of x in every call, x.detach().clone().requires_grad_(True), and call f "
              "on it.")


ITEM_OF_GRADIENT = ("your code turned a tensor of several elements into one Python number (.item() works only for "
                    "a tensor of one element): the gradient has one entry per element of x, so return it as the "
                    "tensor .grad holds.")


def call(answer, inputs):
    x, seen, calls, elsewhere, far, filled, copies, stale, values = inputs["x"], [], [], [], [], [], [], [], []
    before = snapshot(x)
    for _, f in SCALAR_FUNCTIONS:
        watched = WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            try:
                seen.append(answer(watched, x))
            except RuntimeError as error:
                _explain_grad_via_backward_error(error, watched, x)
                raise
        inputs_kept(before, [x], ["x"])
        calls.append(len(ran))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
        filled.append(seen[-1] is None and watched.grad_filled())
        copies.append(any(seen[-1] is t for t in watched.given))
        stale.append(watched.stale)
        values.append(watched.returned_value(seen[-1]))
    return {"grads": seen, "backward_calls": calls, "evaluated_elsewhere": elsewhere, "evaluated_far": far,
            "none_but_filled": filled, "returned_the_copy": copies, "stale_leaf": stale, "returned_value": values}


def _explain_grad_via_backward_error(error: RuntimeError, watched: WhereEvaluated, x: torch.Tensor) -> None:
    """What an error raised inside the answer says about it, in this exercise's terms (else PyTorch's own)."""
    why = "does not require grad and does not have a grad_fn" in str(error) and watched.no_graph(x)
    if why:
        raise Mistake(why, "f_not_on_copy") from None
    if watched.stale and ("shape" in str(error) or "size of tensor" in str(error)):
        raise Mistake(STALE_LEAF.format(effect="here the new gradient was added to one of another shape (hence "
                                        "PyTorch's size error)"), "stale_leaf") from None
    if "cannot be converted to Scalar" in str(error):
        raise Mistake(ITEM_OF_GRADIENT, "item_of_gradient") from None


GRAD_HOW = "Call f once, on a copy of x that requires grad, and let backward() fill the copy's .grad."


def judge(seen, expected, inputs):
    finite_difference(seen, "the gradient", GRAD_HOW)
    if any(seen["none_but_filled"]):
        raise Mistake("your function returned None, yet backward() did fill the .grad of the copy you called f "
                      "on. backward() itself returns None (it stores the gradient instead of returning it): "
                      "return the gradient, not what backward() returns.", "returned_none")
    if any(seen["returned_the_copy"]):
        raise Mistake("your function returned the copy of x that f was called on, not its gradient: backward() "
                      "stores the gradient in that copy's .grad.", "returned_input")
    if any(seen.get("returned_value", ())):
        raise Mistake("your function returned f's value f(x), not its gradient: call backward() on that value, "
                      "then return the .grad of the copy of x that f was called on.", "returned_value")
    for i, ((description, _), got, want, calls) in enumerate(zip(
            SCALAR_FUNCTIONS, seen["grads"], expected["grads"], seen["backward_calls"], strict=True)):
        wrong = diagnose_gradient(want, got, f"the gradient of the {description}", backward_calls=calls)
        if wrong and seen["stale_leaf"][i]:
            raise Mistake(STALE_LEAF.format(effect="the result holds the old gradient too"), "stale_leaf")
        far_from_x(seen, i, wrong, GRAD_HOW)
        require(wrong)
        if calls == 0:
            raise Mistake(f"the gradient of the {description} is right, but backward() never ran: the exercise "
                          "asks for the gradient found with backward().", "no_backward")


HINTS = [
    "Work on a copy of x that requires grad, so the caller's x stays as it was.",
    "backward() fills .grad only of leaves that require grad: your copy has to be one (lesson 1, "
    "section 9, made such a leaf from any data).",
    "backward() returns None: what it computed is stored on a tensor, not returned. Which tensor?",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
