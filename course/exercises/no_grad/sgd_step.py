"""`sgd_step(params, lr)`: one SGD step by hand, in place, with autograd off."""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_tensor, diagnose_values
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of, round_trip
from ...checks.read_back import entries
from ...checks.technique import grad_mode_judged, grad_mode_watched
from ...exercise import Exercise


def _params_with_grads(rng, dtype, count: int, unused: int | None, scalar: int | None = None) -> list[torch.Tensor]:
    """Leaves whose .grad comes from a real backward(); params[unused] takes no part (.grad None), and
    params[scalar] is 0-d, a single number like section 5's slope."""
    params = [rand.tensor(rng, () if i == scalar else rand.shape(rng), dtype, requires_grad=True)
              for i in range(count)]
    weights = [rand.tensor(rng, p.shape, dtype) for p in params]
    with torch.enable_grad():
        sum((w * torch.sin(p) + p**2).sum() for i, (w, p) in enumerate(zip(weights, params))
            if i != unused).backward()
    return params


def inputs(rng):
    """The step's parameters, one unused; and a second list for a call from inside the caller's no_grad()."""
    dtype = rand.float_dtype(rng)
    count = rand.integer(rng, 3, 4)  # beside the unused and the 0-d one, at least one of another shape
    unused = rand.integer(rng, 0, count - 1)
    scalar = (unused + rand.integer(rng, 1, count - 1)) % count  # another parameter than the unused one
    params = _params_with_grads(rng, dtype, count, unused, scalar)
    lr = float(rand.tensor(rng, (), torch.float64, low=0.01, high=0.5))
    return {"params": params, "lr": lr, "unused": unused, "scalar": scalar,
            "inside_no_grad": _params_with_grads(rng, dtype, rand.integer(rng, 1, 3), None),
            # a list of parameters no backward() has reached yet: every .grad is None, nothing to do
            "all_none": [rand.tensor(rng, rand.shape(rng), dtype, requires_grad=True)
                         for _ in range(rand.integer(rng, 1, 2))],
            # the next backward()'s gradients, every parameter's this time: a second step on the same
            # tensors, where a momentum kept per parameter from the first call would show
            "next_grads": [rand.tensor(rng, p.shape, dtype) for p in params]}


def call(answer, inputs):
    params, lr = inputs["params"], inputs["lr"]
    given = list(params)
    versions = [p._version for p in given]
    seen = {"none_grad_error": None, "none_before_use": None}
    try:
        with grad_mode_watched() as grad_mode:
            returned = answer(params, lr)
    except (TypeError, AttributeError) as error:
        if "NoneType" not in str(error):
            raise
        said = f"{type(error).__name__}: {error}"
        if _fails_on_none_anyway(answer, inputs["inside_no_grad"], lr):
            return {**seen, "none_before_use": said}
        return {**seen, "none_grad_error": said}
    except Exception as error:
        _scalar_judged(error, inputs)
        raise
    seen.update({
        "grad_mode_left_off": grad_mode.left_off,
        "list_replaced": len(params) != len(given) or any(p is not q for p, q in zip(params, given)),
        "returned_new": isinstance(returned, (list, tuple)) and any(
            isinstance(r, torch.Tensor) and not any(r is p for p in given) for r in returned),
        "params": given,   # the tensors a model and its optimizer hold, with their flags
        # An in-place change through autograd (no_grad() included) moves the version counter; .data does not.
        "version_moved": [p._version != v for p, v in zip(given, versions)],
        "grads": [p.grad for p in given],
    })
    with torch.no_grad(), grad_mode_watched() as inside:
        answer(inputs["inside_no_grad"], lr)
    seen["inside_no_grad"] = {"grad_mode_turned_on": inside.turned_on}
    seen["nothing_to_do"] = _nothing_to_do(answer, inputs["all_none"], lr)
    seen = round_trip(seen)  # as the first step left them: the same tensors step again below
    for p, g in zip(given, inputs["next_grads"]):
        p.grad = g.clone()
    seen["next_step_error"] = None
    try:
        answer(list(given), lr)
    except Exception as error:  # judged after the first step: it ran on these tensors a moment ago
        seen["next_step_error"] = f"{type(error).__name__}: {error}"
    seen["next_step"] = [p.detach().clone() for p in given]
    return seen


def _scalar_judged(error: Exception, inputs) -> None:
    """An error that only the 0-d parameter explains (`p[:] = ...`): said for that parameter."""
    scalar = inputs["scalar"]
    if "0-dim" in str(error) or "0-d" in str(error):
        raise Mistake(f"params[{scalar}] is a 0-d tensor (a single number, like section 5's slope), and your "
                      f"update raised on it ({type(error).__name__}: {str(error)[:120].rstrip('.')}). Indexing or slicing "
                      "(`p[:] = ...`) needs a dimension; `p -= lr * p.grad` (or p.sub_()) changes a tensor of any "
                      f"shape in place.", "wrong_shape")


def _nothing_to_do(answer, params: list, lr: float) -> dict:
    """Two calls where there is nothing to step: an empty list, and one where every .grad is None."""
    said = {}
    for case, given in (("empty", []), ("all_none", params)):
        before = [p.detach().clone() for p in given]
        try:
            with grad_mode_watched():
                answer(list(given), lr)
        except Exception as error:
            said[case] = f"{type(error).__name__}: {error}"
            continue
        changed = any(not torch.equal(p.detach(), b) or p.grad is not None for p, b in zip(given, before))
        said[case] = "changed" if changed else None
    return said


def _fails_on_none_anyway(answer, params: list, lr: float) -> bool:
    """Whether the answer meets a None even where every parameter has its .grad: then the None it
    failed on was not the unused parameter's .grad, and the error is said as raised."""
    try:
        with grad_mode_watched():
            answer(params, lr)
    except (TypeError, AttributeError) as error:
        return "NoneType" in str(error)
    except Exception:  # another mistake, found in its turn
        return False
    return False


def judge(seen, expected, inputs):
    params, lr, unused = inputs["params"], inputs["lr"], inputs["unused"]
    if seen["none_before_use"] is not None:
        raise Mistake(f"your code used a .grad that is None as a tensor even where every parameter had a .grad "
                      f"({str(seen['none_before_use'])[:120]}): your own code set it to None and then used it "
                      "(p.grad = None, then lr * p.grad or p.grad.zero_()?). Use p.grad for the step first, set it "
                      "to None last, and use it no more after that.", "grad_reset_before_use")
    if seen["none_grad_error"] is not None:
        raise Mistake(f"params[{unused}] took no part in the loss, so its .grad is None, and your update failed "
                      f"on it ({str(seen['none_grad_error'])[:120]}). Skip parameters whose .grad is None, as "
                      "optimizers do.", "grad_none_not_skipped")
    grad_mode_judged(seen, "sgd_step")
    if not isinstance(seen["inside_no_grad"], dict):
        raise Mistake("the check could not read what your function did.", "unreadable")
    grad_mode_judged(seen["inside_no_grad"], "sgd_step", inside_no_grad=True)
    if seen["list_replaced"] is not False:
        raise Mistake("the list now holds new tensors, not the ones you were given: a model and its optimizer "
                      "keep the original objects, so replacing them changes nothing for training. Update each "
                      "tensor in place.", "params_replaced")
    count = len(params)
    moved, grads = entries(seen, "version_moved", count), entries(seen, "grads", count)
    for i, (p, want, old) in enumerate(zip(entries(seen, "params", count), expected["after"], params)):
        what, g = f"params[{i}]", old.grad
        flags = flags_of(p)
        if not flags.is_leaf:
            raise Mistake(f"{what} is no longer a leaf (grad_fn={flags.grad_fn}): the update was recorded in "
                          "the graph. Do it inside `with torch.no_grad():`.", "not_leaf")
        if not flags.requires_grad:
            raise Mistake(f"{what}.requires_grad is now False: the parameter would stop learning.",
                          "params_frozen")
        require(diagnose_tensor(want, p, f"{what} after the step"))
        if g is None:
            if not torch.equal(p, old.detach()):
                raise Mistake(f"{what} had .grad None (it took no part in the loss), so it must stay as it was; "
                              "your step changed it.", "unused_changed")
            if grads[i] is not None:
                raise Mistake(f"{what} had .grad None (it took no part in the loss), and your function gave it a "
                              ".grad: leave it None. To an optimizer None means 'no gradient, skip me', while a "
                              "tensor of zeros is a gradient it uses.", "unused_given_grad")
            continue
        if close(p, old) and not close(g, torch.zeros_like(g)):
            if seen.get("returned_new") is True:
                raise Mistake(f"{what} did not change: your function returned new tensors, but what it returns is "
                              "ignored: the model and its optimizer hold the tensors in params. Change each of "
                              "them in place (p -= lr * p.grad inside torch.no_grad()).", "returned_new")
            if moved[i] is True:
                raise Mistake(f"{what} was updated in place but did not change: the step subtracted nothing. "
                              "Was .grad zeroed (or replaced) before it was used?", "zero_step")
            raise Mistake(f"{what} did not change: the step changed other tensors than the ones in params, or "
                          "none. `p = p - lr * p.grad` only rebinds the name p to a new tensor, a copy changes only "
                          "the copy, and an optimizer kept from an earlier call steps that call's tensors. Update "
                          "each tensor in params in place, where autograd is not recording.", "rebound_not_in_place")
        if close(p, old.detach() + lr * g):
            raise Mistake(f"{what} moved uphill, along +grad: a descent step subtracts lr * grad.", "uphill")
        require(diagnose_values(want, p, f"{what} after the step"))
        if moved[i] is not True:
            raise Mistake(f"{what} changed behind autograd's back, which is what writing through .data does: "
                          "autograd is not told of the change, so a graph that saved p would then compute wrong "
                          "gradients without a word. Update p itself in place under torch.no_grad().",
                          "data_bypass")
        if grads[i] is not None:
            if isinstance(grads[i], torch.Tensor) and close(grads[i], g):
                raise Mistake(f"{what}.grad still holds the gradient used for this step: set it to None after "
                              "the update, or the next backward() adds to it.", "grad_not_reset")
            raise Mistake(f"{what}.grad should be None after the step (`p.grad = None`), not a tensor of zeros "
                          "or anything else: None means 'no gradient' to an optimizer, which then skips the "
                          "parameter, while a tensor of zeros is a gradient, which it still uses.", "grad_not_none")
    _nothing_to_do_judged(seen.get("nothing_to_do"))
    _second_step_judged(seen, expected, count)


def _nothing_to_do_judged(said) -> None:
    if not isinstance(said, dict):
        raise Mistake("the check could not read what your function did.", "unreadable")
    for case, where in (("empty", "an empty list (a model whose parameters are all frozen)"),
                        ("all_none", "a list in which every .grad is None (no backward() has reached them yet)")):
        what = said.get(case)
        if what == "changed":
            raise Mistake(f"given {where}, your function changed a parameter or its .grad: with no gradient "
                          "there is nothing to step, and each tensor must stay as it was.", "unused_changed")
        if what is not None:
            optimizer = "empty parameter list" in str(what)
            fix = (" torch.optim.SGD refuses an empty list of parameters: loop over params yourself, "
                   "which does nothing for an empty list." if optimizer else
                   " A loop over params that skips each .grad that is None does nothing there.")
            raise Mistake(f"the step was right, but given {where} your function raised {str(what)[:160]}: there "
                          f"is nothing to do, and it should do nothing.{fix}", "nothing_to_do_raised")


def _second_step_judged(seen, expected, count: int) -> None:
    """A second call on the same tensors, after the next backward(): plain SGD remembers nothing."""
    if seen["next_step_error"] is not None:
        raise Mistake(f"the first step was right, but a second call on the same tensors, after the next backward(), "
                      f"raised {str(seen['next_step_error'])[:160]}: your function keeps something per parameter "
                      "from one call to the next (a momentum buffer looked up by the tensor itself, which compares "
                      "tensors with ==?). Plain SGD subtracts lr * p.grad of this call and remembers nothing.",
                      "keeps_state")
    for i, (got, want) in enumerate(zip(entries(seen, "next_step", count), expected["next_step"])):
        if not (isinstance(got, torch.Tensor) and close(got, want)):
            raise Mistake(f"the first step was right, but a second call on the same tensors, after the next "
                          f"backward(), moved params[{i}] by something else than lr * its new .grad: your function keeps "
                          "something per parameter from one call to the next (a momentum or velocity buffer?). "
                          "Plain SGD subtracts lr * p.grad of this call and remembers nothing.", "keeps_state")


HINTS = [
    "The model holds these tensor objects: change each one in place (an augmented assignment or an "
    "underscore method), never by binding a new tensor to the name.",
    "An in-place change to a leaf that requires grad is refused while autograd records. Which of this "
    "lesson's tools stops the recording, and puts back whatever mode it found when it ends?",
    "Two of the exercise's rules are about .grad: which parameters to leave alone, and what .grad holds "
    "once you are done. For an optimizer, None means 'no gradient'; a tensor of zeros does not.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
