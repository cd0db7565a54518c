"""Lesson 3 exercises: turning autograd off.

Each check builds its own random tensors and modules, runs the reference computation with real
PyTorch (a deep copy of the model in eval mode under no_grad, autograd on a fresh leaf, ...) and
then reads the answer's values *and* flags: requires_grad, grad_fn, is_leaf, .grad, training.
"""
import copy
from contextlib import contextmanager

import numpy as np
import torch
from torch import nn

from ..checks import random_inputs as rand
from ..checks.compare import close
from ..checks.diagnose import diagnose_gradient, diagnose_tensor, diagnose_values
from ..exercise import Exercise
from ..checks.mistakes import Mistake, require
from ..checks.technique import inputs_kept, snapshot




@contextmanager
def _grad_mode_kept(name: str):
    """An answer that switches autograd off must switch it back on, or every later cell breaks."""
    was_on = torch.is_grad_enabled()
    try:
        yield
    finally:
        switched_off = was_on and not torch.is_grad_enabled()
        torch.set_grad_enabled(was_on)
    if switched_off:
        raise Mistake(f"autograd is still switched off after `{name}` returned (torch.set_grad_enabled"
                      "(False) without switching it back?). Use `with torch.no_grad():`, which "
                      "restores the previous mode when the block ends.")


def _filled(model: nn.Module, rng) -> nn.Module:
    """Parameters drawn from the check's generator, so the case replays from its seed alone."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(rand.tensor(rng, p.shape, p.dtype, low=-1.0, high=1.0))
    return model


def _layer_names(model: nn.Sequential) -> dict[str, torch.Tensor]:
    """``model[2].weight`` -> the tensor: names a learner can paste back into the notebook."""
    return {f"model[{i}].{name}": p for i, layer in enumerate(model) for name, p in layer.named_parameters()}


# --- Exercise: evaluate -------------------------------------------------------------------------

def _mlp_with_dropout(rng, dtype) -> nn.Sequential:
    widths = [rand.integer(rng, 3, 6) for _ in range(rand.integer(rng, 2, 4))]
    layers = []
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b, dtype=dtype), nn.Tanh(), nn.Dropout(p=0.5)]
    layers.append(nn.Linear(widths[-1], rand.integer(rng, 1, 3), dtype=dtype))
    return _filled(nn.Sequential(*layers), rng)


def _evaluate(answer, rng):
    dtype = rand.float_dtype(rng)
    for training in (True, False):
        model = _mlp_with_dropout(rng, dtype).train(training)
        x = rand.tensor(rng, (rand.integer(rng, 2, 5), model[0].in_features), dtype)
        with torch.no_grad():
            expected = copy.deepcopy(model).eval()(x)
        names = _layer_names(model)
        before = snapshot(x, *names.values())
        modes = [m.training for m in model.modules()]
        with _grad_mode_kept("evaluate"):
            got = answer(model, x)
        mode = "train" if training else "eval"
        require(diagnose_tensor(expected, got, "the output"))
        if got.grad_fn is not None or got.requires_grad:
            raise Mistake(f"the output carries a graph (grad_fn={type(got.grad_fn).__name__}): "
                          "model.eval() changes how layers such as Dropout behave, not whether autograd "
                          "records. Run the forward pass inside `with torch.no_grad():`.")
        frozen = [n for n, p in names.items() if not p.requires_grad]
        if frozen:
            raise Mistake(f"evaluate() switched off requires_grad of {frozen[0]}: freezing parameters "
                          "changes the model for good. no_grad() turns recording off without touching it.")
        inputs_kept(before, [x, *names.values()], ["x", *names])
        if not close(got, expected):
            why = " Dropout was still active: no_grad() does not change the mode, call model.eval()." \
                if training else ""
            raise Mistake(f"for a model in {mode} mode, the output differs from the model's output in "
                          f"eval mode.{why}")
        if [m.training for m in model.modules()] != modes:
            raise Mistake(f"the model was in {mode} mode before evaluate() and is in "
                          f"{'train' if model.training else 'eval'} mode after: put it back the way you "
                          "found it (save `model.training` first, then call `model.train(saved)`).")


# --- Exercise: stop_gradient_product ----------------------------------------------------------

def _stop_gradient_product(answer, rng):
    dtype = rand.float_dtype(rng)
    x = rand.tensor(rng, rand.shape(rng), dtype, requires_grad=True)
    before = snapshot(x)
    z = answer(x)
    inputs_kept(before, [x], ["x"])
    x0 = x.detach().clone()
    require(diagnose_tensor(x0**3, z, "z"))
    if not close(z, x0**3):
        raise Mistake("z should equal x * x**2 = x**3 in value: detach() changes which way gradients "
                      "flow, never the values.")
    if z.grad_fn is None:
        raise Mistake("z has no grad_fn, so no gradient can reach x: the whole product was cut off "
                      "the graph. Detach only the x**2 factor and multiply it by x itself.")
    (got,) = torch.autograd.grad(z, x, torch.ones_like(z), allow_unused=True)
    if got is None:
        raise Mistake("z does not depend on the x you were given: it was built from a copy (a new leaf, "
                      "cut off from x). Compute z from x itself.")
    leaf = x0.clone().requires_grad_(True)
    (no_stop,) = torch.autograd.grad((leaf**3).sum(), leaf)   # gradient through both factors
    if close(got, no_stop):
        raise Mistake("dz/dx is 3x**2, the derivative of x**3: nothing was detached, so the gradient "
                      "flowed through both factors. Wrap the x**2 factor in .detach().")
    if close(got, no_stop * 2 / 3):
        raise Mistake("dz/dx is 2x**2: the gradient flowed through x**2 but not through the plain x "
                      "factor. You detached the wrong factor: keep x, detach x**2.")
    require(diagnose_gradient(x0**2, got, "dz/dx"))


# --- Exercise: to_numpy -------------------------------------------------------------------------

TO_NUMPY_CASES = ["a leaf that requires grad", "an intermediate result of a graph",
                  "a tensor that does not require grad"]


def _to_numpy(answer, rng):
    dtype = rand.float_dtype(rng)
    for case in TO_NUMPY_CASES:
        t = rand.tensor(rng, rand.shape(rng), dtype, requires_grad=case != TO_NUMPY_CASES[2])
        if case == TO_NUMPY_CASES[1]:
            t = torch.sin(t)
        expected = t.detach().clone().numpy()
        before = snapshot(t)
        got = answer(t)
        inputs_kept(before, [t], ["t"])
        if not isinstance(got, np.ndarray):
            fix = " .tolist() gives Python lists; .numpy() gives an array." if isinstance(got, list) else \
                " It is still a torch.Tensor: end with .numpy()." if isinstance(got, torch.Tensor) else ""
            raise Mistake(f"for {case}, to_numpy returned a {type(got).__name__}, not a numpy.ndarray.{fix}")
        if got.shape != expected.shape or got.dtype != expected.dtype:
            raise Mistake(f"for {case}, the array has shape {got.shape} and dtype {got.dtype}, expected "
                          f"{expected.shape} and {expected.dtype}: keep the tensor's shape and dtype.")
        if not np.array_equal(got, expected):
            raise Mistake(f"for {case}, the array's values differ from the tensor's.")
        with torch.no_grad():
            t.add_(1.0)   # a later in-place change, like an optimizer step
        if not np.array_equal(got, expected):
            raise Mistake(f"for {case}, your array shares memory with the tensor: after an in-place "
                          "change to t (t.add_(1)), the array changed too. detach() and .numpy() both "
                          "share storage; make a copy with .clone() before .numpy().")


# --- Exercise: sgd_step -------------------------------------------------------------------------

def _sgd_step(answer, rng):
    dtype = rand.float_dtype(rng)
    count = rand.integer(rng, 2, 4)
    params = [rand.tensor(rng, rand.shape(rng), dtype, requires_grad=True) for _ in range(count)]
    unused = rand.integer(rng, 0, count - 1)   # no gradient reaches it, like a layer not in the loss
    weights = [rand.tensor(rng, p.shape, dtype) for p in params]
    sum((w * torch.sin(p) + p**2).sum() for i, (w, p) in enumerate(zip(weights, params)) if i != unused).backward()
    lr = float(rand.tensor(rng, (), torch.float64, low=0.01, high=0.5))
    given = list(params)
    old = [p.detach().clone() for p in params]
    grads = [None if p.grad is None else p.grad.clone() for p in params]
    try:
        with _grad_mode_kept("sgd_step"):
            answer(params, lr)
    except TypeError as error:
        if "NoneType" not in str(error):
            raise
        raise Mistake(f"params[{unused}] took no part in the loss, so its .grad is None, and your update "
                      f"failed on it ({error}). Skip parameters whose .grad is None, as optimizers do.") \
            from error
    if len(params) != count or any(p is not q for p, q in zip(params, given)):
        raise Mistake("the list now holds new tensors, not the ones you were given: a model and its "
                      "optimizer keep the original objects, so replacing them changes nothing for "
                      "training. Update each tensor in place (p -= ...) under torch.no_grad().")
    for i, (p, o, g) in enumerate(zip(params, old, grads)):
        what = f"params[{i}]"
        if not p.is_leaf:
            raise Mistake(f"{what} is no longer a leaf (grad_fn={type(p.grad_fn).__name__}): the update was "
                          "recorded in the graph. Do it inside `with torch.no_grad():`.")
        if not p.requires_grad:
            raise Mistake(f"{what}.requires_grad is now False: the parameter would stop learning.")
        require(diagnose_tensor(o, p, f"{what} after the step"))
        if g is None:
            if not torch.equal(p.detach(), o):
                raise Mistake(f"{what} had .grad None (it took no part in the loss), so it must stay as "
                              "it was; your step changed it.")
            continue
        if close(p, o) and not close(g, torch.zeros_like(g)):
            raise Mistake(f"{what} did not change: `p = p - lr * p.grad` only rebinds the name p to a "
                          "new tensor, and the tensor in params stays as it was. Update in place: "
                          "`p -= lr * p.grad`, inside torch.no_grad().")
        if close(p, o + lr * g):
            raise Mistake(f"{what} moved uphill, along +grad: a descent step subtracts lr * grad.")
        require(diagnose_values(o - lr * g, p.detach(), f"{what} after the step"))
        if p.grad is not None:
            if close(p.grad, g):
                raise Mistake(f"{what}.grad still holds the gradient used for this step: set it to None "
                              "after the update, or the next backward() adds to it.")
            raise Mistake(f"{what}.grad should be None after the step (what zero_grad() does by "
                          "default); set `p.grad = None`.")


# --- Exercise: freeze_all_but_last --------------------------------------------------------------

def _mlp(rng, dtype, ends_with_activation: bool) -> nn.Sequential:
    widths = [rand.integer(rng, 2, 5) for _ in range(rand.integer(rng, 3, 6))]
    layers = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        last = i == len(widths) - 2
        layers.append(nn.Linear(a, b, bias=not (last and ends_with_activation), dtype=dtype))
        if not last or ends_with_activation:
            layers.append(nn.Tanh())
    return _filled(nn.Sequential(*layers), rng)


def _listed(names: set[str], one: str, many: str) -> str:
    return f"{', '.join(sorted(names))} {one if len(names) == 1 else many}"


def _freeze_all_but_last(answer, rng):
    dtype = rand.float_dtype(rng)
    for ends_with_activation in (False, True):
        model = _mlp(rng, dtype, ends_with_activation)
        last = max(i for i, layer in enumerate(model) if list(layer.parameters()))
        names = _layer_names(model)
        before = snapshot(*names.values())
        with _grad_mode_kept("freeze_all_but_last"):
            answer(model)
        if _layer_names(model).keys() != names.keys() or \
                any(p is not q for p, q in zip(_layer_names(model).values(), names.values())):
            raise Mistake("the model's layers or parameters were replaced: freeze the existing parameters "
                          "in place with requires_grad_(False).")
        if any(not torch.equal(p.detach(), o) for p, o in zip(names.values(), before)):
            raise Mistake("a parameter's values changed: freezing changes flags, never values.")
        keep = {n for n, p in names.items() if n.startswith(f"model[{last}].")}
        trainable = {n for n, p in names.items() if p.requires_grad}
        if not trainable:
            why = f" The model ends with {type(model[-1]).__name__}, which has no parameters: the last " \
                  f"layer that has some is model[{last}]." if ends_with_activation else ""
            raise Mistake(f"every parameter is frozen, so nothing can train.{why}")
        if keep - trainable:
            raise Mistake(f"{_listed(keep - trainable, 'no longer requires', 'no longer require')} grad: the last layer "
                          f"with parameters, model[{last}], is the one that should keep training.")
        if trainable - keep:
            raise Mistake(f"{_listed(trainable - keep, 'still requires', 'still require')} grad: every layer before "
                          f"model[{last}] should be frozen with requires_grad_(False).")
        x = rand.tensor(rng, (rand.integer(rng, 1, 4), model[0].in_features), dtype)
        model(x).sum().backward()   # the frozen ones must get no gradient at all
        for n, p in names.items():
            if (p.grad is None) == (n in keep):
                raise Mistake(f"after a backward() through the model, {n}.grad is "
                              f"{'None' if p.grad is None else 'set'}, which its flags cannot explain.")


evaluate = Exercise("evaluate", _evaluate, [
    "Two separate switches: model.eval() changes how Dropout behaves, torch.no_grad() stops the "
    "recording. And the caller's model must end up in the mode it came in.",
    "was_training = model.training; model.eval(); compute model(x) inside `with torch.no_grad():`; "
    "then model.train(was_training) before returning.",
])
stop_gradient_product = Exercise("stop_gradient_product", _stop_gradient_product, [
    "detach() returns the same values with no history: gradients cannot flow through it.",
    "z = x * (x**2).detach(): the detached factor counts as a constant, so dz/dx = x**2.",
])
to_numpy = Exercise("to_numpy", _to_numpy, [
    "NumPy cannot carry a graph, so leave it behind first; and .numpy() shares memory with the tensor.",
    "t.detach().clone().numpy(): detach() drops the graph, clone() makes the copy.",
])
sgd_step = Exercise("sgd_step", _sgd_step, [
    "Change each tensor in place (-=), not by making a new one, and do it where autograd is not "
    "recording. Parameters with .grad None are skipped.",
    "with torch.no_grad(): for p in params: if p.grad is not None: p -= lr * p.grad; p.grad = None",
])
freeze_all_but_last = Exercise("freeze_all_but_last", _freeze_all_but_last, [
    "requires_grad_(False) on a parameter freezes it. The last layer *with parameters* is not "
    "always model[-1]: an activation has none.",
    "model.requires_grad_(False), then find the last layer whose list(layer.parameters()) is not "
    "empty and call requires_grad_(True) on it.",
])
