"""`grad_via_backward(f, x)`: the gradient of a scalar f at x, from one call to `backward()`."""
import torch

from ...checks import random_inputs as rand
from ...checks.diagnose import diagnose_gradient, shape_of
from ...checks.evaluation_points import WhereEvaluated, far_from_x, finite_difference, used_as_a_tensor
from ...checks.mistakes import Mistake, require
from ...checks.read_back import handed_back_within, returned_again
from ...checks.technique import NO_AUTOGRAD_GRAD, counting, forbidden, grad_not_left, inputs_kept, snapshot
from ...exercise import Exercise


SCALAR_FUNCTIONS = [
    ("sum of sin(x) * x**2", lambda t: (torch.sin(t) * t**2).sum()),
    ("mean of exp(-x**2)", lambda t: torch.exp(-t**2).mean()),
    ("log-sum-exp", lambda t: torch.logsumexp(t.reshape(-1), 0)),
]


def inputs(rng):
    """One x per function, so every trial meets the shapes the text allows ("any shape"): a 0-d one (a single
    number) for the sum, one of one to three dimensions of 2 to 4 for the mean, and one with a dimension of size
    1 ((1, n) or (n, 1)) for the log-sum-exp; float32 and float64 both. The mean and the log-sum-exp always
    meet several elements: calling f on each element alone is wrong for them."""
    first = rand.float_dtype(rng)
    other = torch.float64 if first == torch.float32 else torch.float32
    n = rand.integer(rng, 2, 5)
    size_one = ((1, n), (n, 1))[rand.integer(rng, 0, 1)]
    return {"xs": [rand.tensor(rng, (), first), rand.tensor(rng, rand.shape(rng, (1, 3), (2, 4)), other),
                   rand.tensor(rng, size_one, first)]}


STALE_LEAF = ("f was called on a leaf whose .grad already held a gradient from before: a tensor kept from an "
              "earlier call (in a global, a default argument or an attribute)? backward() adds into .grad, so "
              "{effect}. Make a new copy of x in every call, x.detach().clone().requires_grad_(True), and call f "
              "on it.")


ITEM_OF_GRADIENT = ("your code turned a tensor of several elements into one Python number (.item() works only for "
                    "a tensor of one element): the gradient has one entry per element of x, so return it as the "
                    "tensor .grad holds.")


ZEROED_BEFORE_BACKWARD = ("your code called zero_() on the .grad of a fresh copy of x, before any backward(): .grad is "
                          "None until a backward() reaches the copy, so there is nothing to zero. A new copy starts "
                          "with no gradient: call backward() and read its .grad, with no reset.")


def call(answer, inputs):
    seen, calls, elsewhere, far, filled, copies, stale, values, pieces = [], [], [], [], [], [], [], [], []
    for (_, f), x in zip(SCALAR_FUNCTIONS, inputs["xs"]):
        before = snapshot(x)
        watched = WhereEvaluated(f, x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD), counting(torch.autograd, "backward") as ran:
            try:
                seen.append(answer(watched, x))
            except (RuntimeError, AttributeError, TypeError) as error:
                _explain_grad_via_backward_error(error, watched, x)
                raise
        inputs_kept(before, [x], ["x"])
        grad_not_left([x], ["x"])
        calls.append(len(ran))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
        filled.append(seen[-1] is None and watched.grad_filled())
        copies.append(any(seen[-1] is t for t in watched.given))
        stale.append(watched.stale)
        values.append(watched.returned_value(seen[-1]))
        pieces.append(len(watched.given) > 1 and all(isinstance(t, torch.Tensor) and t.numel() < x.numel()
                                                     for t in watched.given))
    return {"grads": seen, "backward_calls": calls, "evaluated_elsewhere": elsewhere, "evaluated_far": far,
            "none_but_filled": filled, "returned_the_copy": copies, "stale_leaf": stale, "returned_value": values,
            "f_on_pieces": pieces, "returned_again": returned_again(seen)}


def _explain_grad_via_backward_error(error: Exception, watched: WhereEvaluated, x: torch.Tensor) -> None:
    """What an error raised inside the answer says about it, in this exercise's terms (else PyTorch's own)."""
    if (misused := used_as_a_tensor(error)) is not None:
        raise misused from None
    if isinstance(error, AttributeError):
        if "'NoneType' object has no attribute 'zero_'" in str(error):
            raise Mistake(ZEROED_BEFORE_BACKWARD, "zeroed_none") from None
        return
    if isinstance(error, TypeError):
        if "0-d tensor" in str(error) and x.dim() == 0:
            raise Mistake(ZERO_D_LOOP.format(error=error), "loop_over_0d") from None
        return
    why = "does not require grad and does not have a grad_fn" in str(error) and watched.no_graph(x)
    if why:
        raise Mistake(why, "f_not_on_copy") from None
    if watched.stale and ("shape" in str(error) or "size of tensor" in str(error)):
        raise Mistake(STALE_LEAF.format(effect="here the new gradient was added to one of another shape (hence "
                                        "PyTorch's size error)"), "stale_leaf") from None
    if "cannot be converted to Scalar" in str(error):
        raise Mistake(ITEM_OF_GRADIENT, "item_of_gradient") from None


ZERO_D_LOOP = ("your code raised TypeError: {error}. Here x is 0-d, a single number of shape (), which has no "
               "rows to loop over or count with len(). .grad already has the shape of x, whatever it is: return it "
               "as it is, with no loop.")


GRAD_HOW = "Call f once, on a copy of x that requires grad, and let backward() fill the copy's .grad."


def judge(seen, expected, inputs):
    handed_back_within("grad_via_backward", [f"f = {d}" for d, _ in SCALAR_FUNCTIONS], seen.get("returned_again"))
    finite_difference(seen, "the gradient", GRAD_HOW)
    if any(seen["none_but_filled"]):
        raise Mistake("your function returned None, yet backward() did fill the .grad of the copy you called f "
                      "on: return that copy's .grad. (backward() itself returns None, since it stores the gradient "
                      "instead of returning it, and the x you were given keeps no .grad.)", "returned_none")
    if any(seen["returned_the_copy"]):
        raise Mistake("your function returned the copy of x that f was called on, not its gradient: backward() "
                      "stores the gradient in that copy's .grad.", "returned_input")
    if any(seen.get("returned_value", ())):
        raise Mistake("your function returned f's value f(x), not its gradient: call backward() on that value, "
                      "then return the .grad of the copy of x that f was called on.", "returned_value")
    for i, ((description, _), x, got, want, calls) in enumerate(zip(
            SCALAR_FUNCTIONS, inputs["xs"], seen["grads"], expected["grads"], seen["backward_calls"], strict=True)):
        wrong = diagnose_gradient(want, got, f"the gradient of the {description}, at {shape_of(x)},",
                                  backward_calls=calls)
        if wrong and seen["stale_leaf"][i]:
            raise Mistake(STALE_LEAF.format(effect="the result holds the old gradient too"), "stale_leaf")
        if wrong and seen["f_on_pieces"][i]:
            raise Mistake(f"for the {description}, f was called on pieces of x (each element, or each row, alone), "
                          "never on the whole x: f(x) depends on all of x at once (a mean divides by every element, "
                          "a log-sum-exp mixes them), so the gradient of f at one piece is not that piece's part of "
                          f"the gradient at x. {GRAD_HOW}", "f_on_pieces")
        far_from_x(seen, i, wrong, GRAD_HOW)
        require(wrong)
        if calls == 0:
            raise Mistake(f"the gradient of the {description} is right, but backward() never ran: the exercise "
                          "asks for the gradient found with backward().", "no_backward")


HINTS = [
    "Work on a copy of x that requires grad, so the caller's x stays as it was.",
    "backward() fills .grad only of leaves that require grad: x.detach().clone() is a leaf with x's values "
    "and no history, and .requires_grad_(True) makes it record.",
    "backward() returns None: what it computed is stored on a tensor, not returned. Which tensor?",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
