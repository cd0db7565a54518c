"""`reset_grads(params, set_to_none)`: each `.grad` set to None, or zeroed in place; a None left alone."""
import torch

from ...checks import random_inputs as rand
from ...checks.diagnose import diagnose_tensor
from ...checks.mistakes import Mistake, require
from ...checks.parameters import grads_of, none_grad_judged
from ...checks.read_back import listed
from ...checks.technique import inputs_kept, snapshot
from ...exercise import Exercise


def inputs(rng):
    """Four calls: each value of set_to_none on parameters of which one never got a gradient and one
    overflowed, then the edges the text allows: no parameter with a .grad, and no parameter at all."""
    first, cases = bool(rand.integer(rng, 0, 1)), []
    for set_to_none in (first, not first):
        count = rand.integer(rng, 3, 4)  # two with a gradient at least: a loop that stops after one shows
        params = [rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng), requires_grad=True) for _ in range(count)]
        untouched = rand.integer(rng, 0, count - 2)  # one parameter never got a gradient, and one after it did
        for i, p in enumerate(params):
            p.grad = None if i == untouched else rand.tensor(rng, p.shape, p.dtype)
        # a gradient that overflowed: a reset must clear inf too (p.grad * 0 would leave NaN)
        overflowed = params[(untouched + 1) % count].grad
        overflowed.view(-1)[rand.integer(rng, 0, overflowed.numel() - 1)] = float("inf")
        cases.append({"params": params, "set_to_none": set_to_none})
    # a model no backward() has reached yet, then an empty list: nothing to reset in either
    no_grads = [rand.tensor(rng, rand.shape(rng), torch.float64, requires_grad=True)
                for _ in range(rand.integer(rng, 1, 3))]
    cases.append({"params": no_grads, "set_to_none": bool(rand.integer(rng, 0, 1))})
    cases.append({"params": [], "set_to_none": bool(rand.integer(rng, 0, 1))})
    return {"cases": cases}


def _what(params: list) -> str:
    """The call the check was making, in words: which edge of the exercise it was."""
    if not params:
        return "for params = [] (an empty list)"
    if all(p.grad is None for p in params):
        return "for parameters of which none has a .grad yet"
    return "for the parameters given"


def call(answer, inputs):
    seen = []
    for case in inputs["cases"]:
        params = case["params"]
        before, old = snapshot(*params), [p.grad for p in params]
        try:
            answer(params, case["set_to_none"])
        except (TypeError, AttributeError) as error:
            none_grad_judged(error, f"params[{[p.grad is None for p in params].index(True)}].grad"
                             if any(p.grad is None for p in params) else "a parameter's .grad")
            raise
        except ValueError as error:
            if "empty parameter list" in str(error):
                raise Mistake(f"{_what(params)}, your code raised ValueError: {error}. An optimizer refuses "
                              "to be built on no parameters, and here there is nothing to reset: with no "
                              "parameter, or none holding a .grad, a reset does nothing. Loop over params "
                              "yourself (for p in params: ...), which does nothing on an empty list.",
                              "empty_optimizer") from None
            raise
        for i, (was, p) in enumerate(zip(before, params)):
            if not torch.equal(p.detach(), was):
                raise Mistake(f"the values of params[{i}] changed: a reset changes .grad only (p.data.zero_() or "
                              f"p.zero_() zeroes the parameter itself, not its gradient). Reset params[{i}].grad.",
                              "params_changed")
        inputs_kept(before, params, [f"params[{i}]" for i in range(len(params))])
        seen.append({"grads": grads_of(params),
                     "same_tensor": [o is not None and p.grad is o for p, o in zip(params, old)]})
    return {"cases": seen}


def judge(seen, expected, inputs):
    cases = listed(seen["cases"], len(inputs["cases"]), "the calls")
    for case, got, want in zip(inputs["cases"], cases, expected["cases"]):
        set_to_none, count = case["set_to_none"], len(case["params"])
        grads, same = listed(got["grads"], count, "params"), listed(got["same_tensor"], count, "params")
        for i, (p, g, kept, w) in enumerate(zip(case["params"], grads, same, want["grads"])):
            name = f"params[{i}].grad"
            if p.grad is None:
                if g is not None:
                    raise Mistake(f"{name} was None and now holds a tensor: a parameter without a gradient "
                                  "has nothing to reset, so leave it None (zero_grad() does).", "grad_created")
            elif set_to_none:
                if g is not None:
                    _stopped_early(i, case["params"], grads, set_to_none, name)
                if g is not None:
                    zeros = isinstance(g, torch.Tensor) and not g.any()
                    raise Mistake(f"with set_to_none=True, {name} should be None, but it is still a tensor"
                                  f"{' of zeros' if zeros else ''}: drop the tensor itself.", "grad_not_none")
            else:
                if g is None:
                    raise Mistake(f"with set_to_none=False, {name} should be a tensor of zeros, but it is "
                                  "None: zero the existing tensor in place instead.", "grad_none")
                if kept is not True:
                    raise Mistake(f"with set_to_none=False, {name} is a new tensor object: zero the existing "
                                  "one in place, so the same tensor (and its memory) is kept.", "grad_replaced")
                require(diagnose_tensor(w, g, name))
                if torch.isnan(g).any() and not torch.isfinite(p.grad).all():
                    raise Mistake(f"with set_to_none=False, {name} held inf (a gradient that overflowed) and now "
                                  "holds NaN: arithmetic on the gradient does not reset one that is not finite "
                                  "(inf * 0, inf - inf and NaN * 0 are all NaN). Write zeros over whatever the "
                                  "tensor holds, in place: zero_().", "inf_times_zero")
                if not torch.equal(g, w):
                    _stopped_early(i, case["params"], grads, set_to_none, name)
                    raise Mistake(f"with set_to_none=False, {name} is not all zeros.", "grad_not_zero")


def _stopped_early(i: int, params: list, grads: list, set_to_none: bool, name: str) -> None:
    """A loop that ends before the list does: an earlier parameter was reset, or the loop stops at the
    first parameter without a gradient (then nothing after it is reset)."""
    reset_before = any(p.grad is not None and (g is None if set_to_none else isinstance(g, torch.Tensor) and not g.any())
                       for p, g in zip(params[:i], grads[:i]))
    none_before = [j for j, p in enumerate(params[:i]) if p.grad is None]
    after = none_before[0] + 1 if none_before else len(params)
    untouched = all(p.grad is None or g is not None and torch.equal(g, p.grad)
                    for p, g in zip(params[after:], grads[after:]))
    if reset_before or (none_before and untouched):
        raise Mistake(f"with set_to_none={set_to_none}, {name} was not reset, although it has a gradient: your loop "
                      "stopped before the end of the list (a return inside it, or a break where a continue "
                      "belongs?). Skip a parameter without a gradient and go on: reset every one that has one.",
                      "stopped_early")


HINTS = [
    "A parameter whose .grad is already None has nothing to reset: skip it.",
    "There are two ways to reset: drop the tensor (assign None to the attribute), or fill the "
    "existing tensor with zeros without making a new one.",
    "The in-place method names end in an underscore; zeros_like() or a new torch.zeros() would "
    "give a new tensor object, which the check refuses for set_to_none=False.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
