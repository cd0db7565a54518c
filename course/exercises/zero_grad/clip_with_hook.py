"""`clip_with_hook(model, max_value)`: a hook on every parameter that clips each incoming gradient to
[-max_value, max_value] before it is added into `.grad`; its handles returned.
"""
import copy
from collections.abc import Iterator

import torch
from torch import nn

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, diagnose_tensor
from ...checks.mistakes import Mistake, require
from ...checks.parameters import as_attribute, grads_of, replaced
from ...checks.random_models import random_mlp
from ...checks.read_back import listed
from ...exercise import Exercise


def inputs(rng):
    n_in, n_out, rows = rand.integer(rng, 1, 4), rand.integer(rng, 1, 3), rand.integer(rng, 2, 5)
    model = random_mlp(rng, n_in, n_out)
    first, last = [(rand.tensor(rng, (rows, n_in), torch.float64), rand.tensor(rng, (rows, n_out), torch.float64))
                   for _ in range(2)]
    batches = [first, first, last]  # the same batch twice: each pass clipped, then added, shows
    # a threshold below the largest gradient entry of either sign, so that both sides get clipped, and
    # below the largest entry of every parameter, weights and biases alike, so that each gets clipped
    probe = copy.deepcopy(model)
    per_param = torch.autograd.grad(nn.functional.mse_loss(probe(first[0]), first[1]), list(probe.parameters()))
    grads = torch.cat([g.reshape(-1) for g in per_param])
    largest = min(float(grads.max()), float(-grads.min()))
    largest = largest if largest > 0 else float(grads.abs().max())  # all of one sign: clip that side
    largest = min([largest] + [float(g.abs().max()) for g in per_param if g.any()])
    max_value = largest * float(rand.tensor(rng, (), torch.float64, 0.2, 0.6))
    largest_weight = max(float(p.detach().abs().max()) for p in model.parameters())
    # the third pass, after the hooks are removed, has a loss scaled up so far that any hook left
    # in place would visibly clip
    max_value = min(max_value, 0.9 * largest_weight)
    # then the caller clips the same model again, after removing the first hooks, at a lower threshold
    again = max_value * float(rand.tensor(rng, (), torch.float64, 0.3, 0.7))
    return {"model": model, "batches": batches, "max_value": max_value, "scales": [1.0, 1.0, 1000.0],
            "max_value_again": again}


_MODULE_HOOKS = {"forward": ("_forward_hooks", "_forward_pre_hooks"),
                 "backward": ("_backward_hooks", "_backward_pre_hooks")}


def _module_hooks(model: nn.Module) -> dict[str, int]:
    """How many hooks of each kind the model's modules hold: hooks on modules, not on tensors."""
    return {kind: sum(len(getattr(m, attr, None) or ()) for m in model.modules() for attr in attrs)
            for kind, attrs in _MODULE_HOOKS.items()}


def call(answer, inputs):
    model, batches = inputs["model"], inputs["batches"]
    params = list(model.parameters())
    start = [p.detach().clone() for p in params]
    # The caller's own hook on every parameter, registered first, as a gradient logger would be: it
    # holds the very tensor autograd hands to the hooks, so a later hook changing it in place shows.
    logged = [[] for _ in params]
    for p, log in zip(params, logged):
        p.register_hook(lambda grad, log=log: log.append((grad, grad.detach().clone())))
    theirs, modules_before = [len(p._backward_hooks or ()) for p in params], _module_hooks(model)
    handles = answer(model, inputs["max_value"])
    if isinstance(handles, Iterator) and not isinstance(handles, (list, tuple)):
        raise _lazy(handles)
    moved = any(not torch.equal(s, p.detach()) for s, p in zip(start, params))
    hooked = [len(p._backward_hooks or ()) > n for p, n in zip(params, theirs)]  # where register_hook put one
    module_hooks = [kind for kind, n in _module_hooks(model).items() if n > modules_before[kind]]
    handles_elsewhere = _handles_elsewhere(handles, params)
    changed = [False] * len(params)
    seen = []
    for i, ((x, y), scale) in enumerate(zip(batches, inputs["scales"])):
        if i == 2:  # the caller removes the hooks, and starts from an empty .grad
            removable = isinstance(handles, (list, tuple)) and len(handles) > 0 and \
                all(callable(getattr(h, "remove", None)) for h in handles)
            if removable:
                for h in handles:
                    h.remove()
            for p in params:
                p.grad = None
        (scale * nn.functional.mse_loss(model(x), y)).backward()
        seen.append(grads_of(params))
        changed = [was or any(not torch.equal(grad, values) for grad, values in log)
                   for was, log in zip(changed, logged)]
        for log in logged:
            log.clear()
    again = None
    if removable:  # clip -> remove -> clip on the same model: the second call must register hooks anew
        for p in params:
            p.grad = None
        handles_again = answer(model, inputs["max_value_again"])
        if isinstance(handles_again, Iterator) and not isinstance(handles_again, (list, tuple)):
            raise _lazy(handles_again)
        nn.functional.mse_loss(model(batches[0][0]), batches[0][1]).backward()
        again = grads_of(params)
        for h in handles_again if isinstance(handles_again, (list, tuple)) else ():
            if callable(getattr(h, "remove", None)):
                h.remove()
    return {"first": seen[0], "second": seen[1], "after_remove": seen[2], "again": again, "moved": moved,
            "handles": type(handles).__name__, "removable": removable, "hooked": hooked,
            "module_hooks": module_hooks,
            "handle_count": len(handles) if isinstance(handles, (list, tuple)) else None,
            "argument_changed": changed, "handles_elsewhere": handles_elsewhere,
            "replaced": replaced(params, list(model.parameters()))}


def _lazy(handles) -> Mistake:
    """A map or generator of registrations: nothing is registered until someone iterates over it."""
    kind = type(handles).__name__
    return Mistake(f"your function returned a {kind} object, which is lazy: the register_hook calls inside it run "
                   "only when something iterates over it, and nothing had when the caller's backward() ran, so no "
                   "parameter had a hook. Return a list, which makes every call at once: a list comprehension "
                   "[... for p in model.parameters()] or list(map(...)).", "lazy_handles")


def _handles_elsewhere(handles, params: list) -> bool:
    """Whether the answer returned hook handles of which none is on a parameter of this model: hooks
    registered on an earlier call's parameters, and their handles kept."""
    if not isinstance(handles, (list, tuple)) or not handles:
        return False
    ours = [p._backward_hooks for p in params if p._backward_hooks is not None]
    refs = [getattr(h, "hooks_dict_ref", None) for h in handles]
    return all(callable(ref) and not any(ref() is d for d in ours) for ref in refs)


_ON_EACH_PARAMETER = ("Register a gradient hook on each parameter tensor instead, p.register_hook(fn): autograd "
                      "calls fn with that parameter's gradient as it arrives, and uses what fn returns.")


def _module_hook_mistake(kinds: list) -> Mistake:
    """A hook on a module, not on the parameter tensors: it never sees a parameter's gradient."""
    if "forward" in kinds:
        return Mistake("your code registered a forward hook on a module (register_forward_hook or "
                       "register_forward_pre_hook): a forward hook runs during the forward pass and sees a "
                       "module's inputs and outputs, not gradients, so it changes what the model computes and "
                       "clips no gradient. " + _ON_EACH_PARAMETER, "forward_hook")
    return Mistake("your code registered a backward hook on a module (register_full_backward_hook): a module's "
                   "backward hook sees the gradients of the module's inputs and outputs, not of its parameters, "
                   "so the weights' and biases' .grad are not what it clips. " + _ON_EACH_PARAMETER,
                   "module_backward_hook")


def _clip_first_pass(seen, expected, names, wanted, m: float) -> None:
    """One backward() after the hooks were registered: every parameter hooked, both sides clipped."""
    for name, got, want, *_ in wanted:
        require(diagnose_tensor(want, got, f"`{name}.grad` after one backward()"))
    wrong = [entry for entry in wanted if not close(entry[1], entry[2])]
    if wrong and seen["module_hooks"] and not all(has_hook is True for *_, has_hook in wanted):
        raise _module_hook_mistake(seen["module_hooks"])
    unhooked = [name for name, got, want, raw, *_, has_hook in wanted
                if has_hook is not True and not close(got, want) and close(got, raw)]
    if unhooked and not any(has_hook is True for *_, has_hook in wanted) and seen.get("handles_elsewhere") is True:
        raise Mistake("no parameter of this model has a hook, yet your function returned handles: they are "
                      "the handles of hooks registered on an earlier call's parameters. Your function keeps "
                      "something from one call to the next (hooks registered once, behind a global?): register "
                      "the hooks on the model of this call, every time it is called.", "keeps_state")
    if unhooked and not any(has_hook is True for *_, has_hook in wanted):
        raise Mistake("no parameter has a hook, so nothing clips the gradients of later backward passes: "
                      "register_hook on a parameter is what asks autograd to call your function with each "
                      "gradient as it arrives. Clamping .grad now changes only what it holds now.", "no_hooks")
    if unhooked:
        raise Mistake(f"`{unhooked[0]}.grad` is not clipped: `{unhooked[0]}` has no hook. Every parameter of "
                      "the model needs its own, weights and biases alike: register one on each tensor "
                      "model.parameters() gives.", "param_not_hooked")
    # Judged over all parameters, not one at a time: on a parameter whose gradient has no entry above
    # max_value, "clamped above only" and "not clamped" look the same. The inputs make sure some
    # entry is above max_value and some below -max_value.
    if wrong and all(close(got, upper) for _, got, _, _, upper, *_ in wanted):
        raise Mistake("after one backward(), .grad is clipped above max_value but not below -max_value: "
                      "clamp both sides.", "one_sided")
    if wrong and all(close(got, raw.abs().clamp(max=m)) for _, got, _, raw, *_ in wanted):
        raise Mistake("after one backward(), every entry of .grad is positive: your hook took abs() of the "
                      "gradient before clamping, which throws its sign away, so a negative gradient comes out "
                      "positive. Clamp the gradient itself on both sides: clamp(-max_value, max_value).", "lost_sign")
    if wrong and all(close(got, at_zero) for _, got, _, _, _, at_zero, _ in wanted):
        raise Mistake("after one backward(), .grad has its negative entries set to 0: the range is "
                      "[-max_value, max_value], not [0, max_value]. A negative gradient is clipped only below "
                      "-max_value.", "clipped_at_zero")
    if wrong and all(close(got, raw) for _, got, _, raw, *_ in wrong):
        raise Mistake(f"after one backward(), `{wrong[0][0]}.grad` holds the unclipped gradient, though a hook "
                      "is registered on it: the clamp never reached .grad. A hook registered with register_hook "
                      "changes the gradient by returning the new one, which autograd uses in its place.",
                      "not_clipped")
    if wrong:
        c = max(float(got.abs().max()) for _, got, *_ in wanted if got.numel())
        if not close(torch.tensor(c), torch.tensor(m)) and all(close(got, raw.clamp(-c, c)) for _, got, _, raw, *_ in wanted):
            raise Mistake(f"after one backward(), .grad is clipped to [-{c:.3g}, {c:.3g}], not to [-max_value, "
                          f"max_value] with this call's max_value = {m:.3g}: your hook clips at a threshold of its "
                          "own (a number typed in, or a max_value kept from an earlier call in a global or a "
                          "default argument?). Use the max_value your function was called with.", "wrong_threshold")
    if wrong and all(close(got, raw.sign() * m) for _, got, _, raw, *_ in wanted):
        raise Mistake(f"after one backward(), every entry of .grad is +{m:.3g} or -{m:.3g} (max_value with the "
                      "gradient's sign): your hook replaced each gradient, where clipping changes only the entries "
                      "beyond the limit and leaves the others as they are. Return g.clamp(-max_value, max_value).",
                      "sign_times_limit")
    for name, got, want, *_ in wrong:
        require(diagnose_gradient(want, got, f"`{name}.grad` after one backward()"))
    for name, changed in zip(names, listed(seen["argument_changed"], len(names), "parameters")):
        if changed is not False:
            raise Mistake(f"your hook changed the gradient it was given in place: the caller's own hook on "
                          f"`{name}`, registered before yours, holds that same tensor, and its values changed "
                          "after your hook ran. Autograd may hand one gradient tensor to several hooks and "
                          "nodes, so a hook must leave its argument as it is and return the clipped gradient "
                          "as a new tensor, which autograd then uses in its place.", "hook_in_place")


def judge(seen, expected, inputs):
    if seen["replaced"] is not False or seen["moved"] is not False:
        raise Mistake("your code changed the model's parameters: it should only register hooks that change "
                      "gradients.", "params_changed")
    names = [as_attribute(name) for name, _ in inputs["model"].named_parameters()]
    count, m = len(names), inputs["max_value"]
    first, second = listed(seen["first"], count, "parameters"), listed(seen["second"], count, "parameters")
    _clip_first_pass(seen, expected, names, list(zip(
        names, first, expected["first"], expected["unclipped"], expected["upper_only"], expected["at_zero"],
        listed(seen["hooked"], count, "parameters"))), m)
    for name, got, want, total in zip(names, second, expected["second"], expected["clip_total"]):
        what = f"`{name}.grad` after a second backward() without a reset"
        require(diagnose_tensor(want, got, what))
        if not close(got, want) and close(got, total):
            raise Mistake(f"{what} is the clipped total: your clamp saw the accumulated .grad. Clip each "
                          "backward pass's gradient as it arrives, before it is added into .grad (a hook on the "
                          "parameter tensor itself), so two passes can add up to more than max_value.",
                          "clipped_total")
        require(diagnose_gradient(want, got, what))
    if seen["removable"] is not True and seen.get("handle_count") == 0:
        raise Mistake(f"your function returned an empty {seen['handles']}: the hooks were registered, but "
                      "the caller got none of their handles and cannot remove them. Keep each handle "
                      "register_hook gives you, one per parameter, and return them all.", "no_handles")
    if seen["removable"] is not True:
        raise Mistake(f"your function returned {'None' if seen['handles'] == 'NoneType' else 'a ' + str(seen['handles'])}: "
                      "return the list of handles register_hook "
                      "gave you, so the caller can remove the hooks.", "no_handles")
    for name, got, want in zip(names, listed(seen["after_remove"], count, "parameters"), expected["after_remove"]):
        what = f"`{name}.grad` after the caller removed your hooks"
        require(diagnose_tensor(want, got, what))
        if not close(got, want):
            raise Mistake(f"{what} is still clipped: the handles you returned are not the ones of the hooks "
                          f"that clip (max_value={m:.3g}). Return every handle register_hook gave you.",
                          "hooks_left")
    _judge_again(seen, expected, names, inputs)


def _judge_again(seen, expected, names, inputs) -> None:
    """The caller removed the hooks, then called clip_with_hook on the same model with another max_value."""
    m, again = inputs["max_value"], inputs["max_value_again"]
    for name, got, want, unclipped, old in zip(names, listed(seen["again"], len(names), "parameters"),
                                                expected["again"], expected["unclipped"], expected["first"]):
        what = (f"`{name}.grad` after the caller removed your hooks and called clip_with_hook(model, {again:.3g}) "
                "on the same model")
        require(diagnose_tensor(want, got, what))
        if close(got, want):
            continue
        if close(got, unclipped):
            raise Mistake(f"{what} is not clipped: that second call registered no hook, and handed back the "
                          "handles of hooks the caller had removed. Your function keeps something from one call "
                          "to the next (hooks registered once, their handles kept in a global, on the model or in "
                          "a dict by id(model)?): register new hooks every time it is called.", "keeps_state")
        if close(got, old):
            raise Mistake(f"{what} is clipped at the first call's max_value ({m:.3g}), not at {again:.3g}: your "
                          "hook uses a max_value kept from an earlier call (a global or a default argument?). Let "
                          "each hook use the max_value of the call that registered it.", "keeps_state")
        require(diagnose_gradient(want, got, what))


HINTS = [
    "A tensor hook is a function of the incoming gradient; what it returns replaces that gradient "
    "before it is added into .grad.",
    "Every parameter needs its own hook, weights and biases alike, and the caller needs what each "
    "registration returns.",
    "Which tensor method limits every entry to a range, on both sides? Make sure the hook returns "
    "its result rather than changing the gradient it was given.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
