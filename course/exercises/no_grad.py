"""Lesson 3 exercises: turning autograd off, and changing tensors behind its back (or not).

Each exercise draws its inputs from a seed; ``call`` runs the answer in the student's kernel and
sends back what it saw as plain data: outputs with their flags, and what only the kernel can see
(the grad mode after the call, module modes, which parameters were replaced, frozen or changed,
version counters, ``.grad``). The expected values (eval-mode outputs, the SGD update, which
parameters train...) are computed by the grader (``autograder/grading/judging/references/no_grad.py``);
nothing here holds an answer.
"""

import re
from contextlib import contextmanager, nullcontext

import numpy as np
import torch
from torch import nn

from ..checks import random_inputs as rand
from ..checks.compare import close, tolerances
from ..checks.diagnose import diagnose_gradient, diagnose_tensor, diagnose_values
from ..checks.mistakes import Mistake, require
from ..checks.observation import flags_of, round_trip
from ..checks.technique import TorchCalls, data_watched, grad_mode_watched, inputs_kept, snapshot
from ..exercise import Exercise
from ..lesson_footer import close_lesson


# --- what only the kernel can see --------------------------------------------------------------

def _layer_names(model: nn.Sequential) -> dict[str, torch.Tensor]:
    """``model[2].weight`` -> the tensor: names a learner can paste back into the notebook."""
    return {f"model[{i}].{name}": p for i, layer in enumerate(model) for name, p in layer.named_parameters()}


def _values_changed(names: dict[str, torch.Tensor], before: list[torch.Tensor]) -> list[str]:
    return [n for (n, p), old in zip(names.items(), before) if not torch.equal(p.detach(), old)]


def _filled(model: nn.Module, rng) -> nn.Module:
    """Parameters drawn from the trial's generator, so the case replays from its seed alone."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(rand.tensor(rng, p.shape, p.dtype, low=-1.0, high=1.0))
    return model


class _Recorded(list):
    """Whether each layer's output was recorded; ``modes`` says in which mode each Dropout ran."""


@contextmanager
def _forward_recorded(model: nn.Module):
    """Notes, for every layer the answer runs, whether autograd recorded its output (it has a grad_fn).

    An output without a graph can come from a forward pass that recorded nothing (no_grad()) or from
    one that recorded a whole graph, then cut it off with detach(): only the layers see the difference.
    The hooks sit on the model's own modules and go, whatever the answer did.
    """
    recorded = _Recorded()
    recorded_modes = []  # (the whole model's training flag, a Dropout's) as each Dropout ran

    def note(module, args, output):
        if isinstance(output, torch.Tensor):
            recorded.append(output.grad_fn is not None)
        if isinstance(module, nn.Dropout):
            recorded_modes.append((model.training, module.training))

    handles = [m.register_forward_hook(note) for m in model.modules()]
    recorded.modes = recorded_modes
    try:
        yield recorded
    finally:
        for handle in handles:
            handle.remove()


def _entries(seen, key: str, count: int) -> list:
    """``seen[key]`` as a list of ``count`` entries: a short list must not pass by skipping cases."""
    got = seen[key]
    if not isinstance(got, list) or len(got) != count:
        raise Mistake("the check could not read what your function did: return what the exercise asks for.",
                      "unreadable")
    return got


def _grad_mode_judged(got: dict, name: str, inside_no_grad: bool = False) -> None:
    """The caller's grad mode is the caller's: on stays on, and off (inside its no_grad()) stays off."""
    if inside_no_grad:
        if got["grad_mode_turned_on"] is not False:
            raise Mistake(f"autograd is recording after `{name}` returned, though the caller called it inside "
                          "its own `with torch.no_grad():` block: torch.set_grad_enabled(True) switches "
                          "recording on whatever the mode was before. Use `with torch.no_grad():`, which "
                          "restores the caller's mode when the block ends.", "grad_mode_turned_on")
    elif got["grad_mode_left_off"] is not False:
        raise Mistake(f"autograd is still switched off after `{name}` returned: torch.set_grad_enabled(False) "
                      "lasts until it is switched back, for every later cell. Use `with torch.no_grad():`, "
                      "which restores the previous mode when the block ends.", "grad_mode_left_off")


# --- Exercise: evaluate -------------------------------------------------------------------------

def _mlp_with_dropout(rng, dtype) -> nn.Sequential:
    widths = [rand.integer(rng, 3, 6) for _ in range(rand.integer(rng, 2, 4))]
    layers = []
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b, dtype=dtype), nn.Tanh(), nn.Dropout(p=0.5)]
    layers.append(nn.Linear(widths[-1], rand.integer(rng, 1, 3), dtype=dtype))
    return _filled(nn.Sequential(*layers), rng)


# A validation loop calls evaluate() inside its own no_grad(), on a model already in eval mode: the
# trial calls that case so, and an answer that switches recording on "to restore it" is caught.
EVALUATE_INSIDE_NO_GRAD = 1
EVALUATE_SAME_MODEL_AGAIN = 2  # the first case's model, with another x of the same shape


def _evaluate_inputs(rng):
    """One model in train mode, one in eval mode: the answer must leave each as it found it. Then the
    first model again, with another x of the same shape: a cache keyed on the model and the shape
    meets it."""
    dtype = rand.float_dtype(rng)
    cases = []
    for training in (True, False):
        model = _mlp_with_dropout(rng, dtype).train(training)
        cases.append({"model": model, "x": rand.tensor(rng, (rand.integer(rng, 2, 5), model[0].in_features), dtype)})
    cases.append({"model": cases[0]["model"], "x": rand.tensor(rng, tuple(cases[0]["x"].shape), dtype)})
    return {"cases": cases}


def _evaluate_call(answer, inputs):
    seen = []
    for i, case in enumerate(inputs["cases"]):
        model, x = case["model"], case["x"]
        names = {"x": x, **_layer_names(model)}
        before = [t.detach().clone() for t in names.values()]
        modes = [m.training for m in model.modules()]
        with torch.no_grad() if i == EVALUATE_INSIDE_NO_GRAD else nullcontext():
            with grad_mode_watched() as grad_mode, _forward_recorded(model) as recorded:
                out = answer(model, x)
        seen.append({"output": out, "grad_mode_left_off": grad_mode.left_off,
                     "forward_recorded": any(recorded),
                     "flag_set_by_hand": any(not outer and inner for outer, inner in recorded.modes),
                     "grad_mode_turned_on": grad_mode.turned_on,
                     "frozen": [n for n, p in names.items() if n != "x" and not p.requires_grad],
                     "changed": _values_changed(names, before),
                     "modes_kept": [m.training for m in model.modules()] == modes,
                     "mode_after": "train" if model.training else "eval"})
    return {"cases": seen}


def _evaluate_judge(seen, expected, inputs):
    cases = inputs["cases"]
    for i, (case, got, want) in enumerate(zip(cases, _entries(seen, "cases", len(cases)), expected["outputs"])):
        mode = "train" if case["model"].training else "eval"
        _grad_mode_judged(got, "evaluate", inside_no_grad=i == EVALUATE_INSIDE_NO_GRAD)
        out = got["output"]
        require(diagnose_tensor(want, out, "the output"))
        if i == EVALUATE_SAME_MODEL_AGAIN and not close(out, want) and close(out, expected["outputs"][0]):
            raise Mistake("called again on the same model with another x of the same shape, evaluate() returned "
                          "the first call's output: your function keeps something from one call to the next (a "
                          "cache keyed on the model and the shape?). Compute the output from this call's x.",
                          "keeps_state")
        flags = flags_of(out)
        if flags.requires_grad or flags.grad_fn is not None:
            raise Mistake(f"the output carries a graph (grad_fn={flags.grad_fn}): model.eval() changes how "
                          "layers such as Dropout behave, not whether autograd records. Run the forward pass "
                          "inside `with torch.no_grad():`.", "graph_recorded")
        if got["forward_recorded"] is not False:
            raise Mistake("the forward pass was recorded and then thrown away: autograd built a graph through "
                          "the model's layers, keeping their values for backward, and cutting the result off it "
                          "afterwards (with detach() or .data) came too late. Run the forward pass inside "
                          "`with torch.no_grad():`, so that nothing is recorded at all.", "recorded_then_detached")
        if got["frozen"]:
            raise Mistake(f"evaluate() switched off requires_grad of {got['frozen'][0]}: freezing parameters "
                          "changes the model for good. no_grad() turns recording off without touching it.",
                          "params_frozen")
        if got["changed"]:
            raise Mistake(f"your code changed the values of `{got['changed'][0]}` in place: evaluating "
                          "must leave the model and x as given.", "input_changed")
        if not close(out, want):
            if mode == "train" and got.get("flag_set_by_hand") is True:
                raise Mistake("for a model in train mode, Dropout was still active: `model.training = False` sets "
                              "only the outer module's flag, and the Dropout layers inside kept theirs. "
                              "model.eval() sets the mode on every submodule.", "training_set_by_hand")
            if mode == "train":
                raise Mistake("for a model in train mode, the output differs from the model's output in eval "
                              "mode: Dropout was still active. no_grad() does not change the mode: call "
                              "model.eval() (with its parentheses: model.eval alone does nothing).", "dropout_active")
            require(diagnose_values(want, out, "for a model in eval mode, the output"))
        if got["modes_kept"] is not True and got["mode_after"] == mode:
            raise Mistake(f"the model says {mode} mode again, but some of its layers (such as Dropout) were "
                          "left in the other mode: setting `model.training` changes one flag, while "
                          "`model.train(mode)` and `model.eval()` set it on every submodule.", "mode_not_restored")
        if got["modes_kept"] is not True:
            raise Mistake(f"the model was in {mode} mode before evaluate() and is in {got['mode_after']} mode "
                          "after: put it back the way you found it (read `model.training` first, and restore "
                          "that mode before returning).", "mode_not_restored")


# --- Exercise: stop_gradient_product -----------------------------------------------------------

def _stop_gradient_product_inputs(rng):
    """x, and another x of the same shape and dtype: a cache keyed on the shape meets it in one call."""
    shape, dtype = rand.shape(rng), rand.float_dtype(rng)
    return {"x": rand.tensor(rng, shape, dtype, requires_grad=True),
            "same_shape": rand.tensor(rng, shape, dtype, requires_grad=True)}


def _stop_gradient_product_once(answer, x):
    before = snapshot(x)
    z = answer(x)
    inputs_kept(before, [x], ["x"])
    dz_dx = None
    if isinstance(z, torch.Tensor) and z.requires_grad and z.is_floating_point():
        # What the lesson's backward on z would put in x.grad, without touching x.grad.
        (dz_dx,) = torch.autograd.grad(z, x, torch.ones_like(z), allow_unused=True)
    return {"z": z, "dz_dx": dz_dx}


def _stop_gradient_product_call(answer, inputs):
    return {**_stop_gradient_product_once(answer, inputs["x"]),
            "same_shape": _stop_gradient_product_once(answer, inputs["same_shape"])}


def _factor_kept(seen, expected, inputs) -> bool:
    """Whether z is wrong and is x times one factor that is the same for two different x: a factor
    that does not come from the call's own x (z0 / x0 == z1 / x1, compared without dividing)."""
    z0, again = seen["z"], seen["same_shape"]
    z1 = again.get("z") if isinstance(again, dict) else None
    x0, x1 = inputs["x"].detach().double(), inputs["same_shape"].detach().double()
    if not all(isinstance(z, torch.Tensor) and z.shape == x0.shape and z.is_floating_point() for z in (z0, z1)):
        return False
    if z0.dtype == expected["z"].dtype and close(z0, expected["z"]):
        return False
    rtol, atol = tolerances(inputs["x"].dtype)
    return bool(torch.allclose(z0.detach().double() * x1, z1.detach().double() * x0, rtol=10 * rtol, atol=10 * atol))


def _stop_gradient_product_judge(seen, expected, inputs):
    z, dz_dx = seen["z"], seen["dz_dx"]
    if _factor_kept(seen, expected, inputs):
        raise Mistake("z is x times a factor that is the same for two different x of the same shape, so that "
                      "factor does not come from the x of the call: your function keeps something from one call "
                      "to the next (a cache keyed on the shape?), and reused an earlier call's x**2. Compute the "
                      "detached factor from the x of this call.", "keeps_state")
    require(diagnose_tensor(expected["z"], z, "z"))
    if not close(z, expected["z"]):
        raise Mistake("z should equal x * x**2 = x**3 in value: detach() changes which way gradients flow, "
                      "never the values.", "wrong_value")
    if flags_of(z).grad_fn is None:
        raise Mistake("z has no grad_fn, so no gradient can reach x: the whole product was cut off the graph. "
                      "Detach only the x**2 factor and multiply it by x itself.", "cut_off_graph")
    if dz_dx is None:
        raise Mistake("z does not depend on the x you were given: it was built from a copy (a new leaf, cut "
                      "off from x). Compute z from x itself.", "copy_of_x")
    if diagnose_tensor(expected["dz_dx"], dz_dx) is None:
        if close(dz_dx, expected["through_both"]):
            raise Mistake("dz/dx is 3x**2, the derivative of x**3: nothing was detached, so the gradient "
                          "flowed through both factors. Detach the x**2 factor (detach() returns a new tensor and "
                          "leaves its input as it is: use what it returns).", "nothing_detached")
        if close(dz_dx, expected["through_square"]):
            raise Mistake("dz/dx is 2x**2: the gradient flowed through x**2 but not through the plain x "
                          "factor. You detached the wrong factor: keep x, detach x**2.", "wrong_factor_detached")
    require(diagnose_gradient(expected["dz_dx"], dz_dx, "dz/dx"))
    again, want = seen["same_shape"], expected["same_shape"]
    if not isinstance(again, dict):
        raise Mistake("the check could not read what your function did: return what the exercise asks for.",
                      "unreadable")
    if not all(isinstance(again.get(k), torch.Tensor) and close(again[k], want[k]) for k in ("z", "dz_dx")):
        raise Mistake("z is right for one x, but wrong for the next x of the same shape and dtype, called just "
                      "after it: your function keeps something from one call to the next (a cache keyed on the "
                      "shape?), and reused an earlier call's x**2. Compute the detached factor from the x of "
                      "this call.", "keeps_state")


# --- Exercise: to_numpy -------------------------------------------------------------------------

TO_NUMPY_CASES = ["a leaf that requires grad", "an intermediate result of a graph",
                  "a tensor that does not require grad",
                  "another leaf of the first one's shape and dtype, with other values"]
# What .numpy() accepts among floating-point dtypes: NumPy has no bfloat16.
NUMPY_FLOAT_DTYPES = (torch.float16, torch.float32, torch.float64)


def _to_numpy_inputs(rng):
    """Each dtype once per trial, in a random order: an answer that copies (or changes t) for
    some dtypes only, as `.to(dtype)` and `torch.as_tensor` do, meets every dtype every time."""
    tensors = []
    order = torch.randperm(len(NUMPY_FLOAT_DTYPES), generator=rng).tolist()
    for case, index in zip(TO_NUMPY_CASES, order):
        dtype = NUMPY_FLOAT_DTYPES[index]
        t = rand.tensor(rng, rand.shape(rng), dtype, requires_grad=case != TO_NUMPY_CASES[2])
        tensors.append(torch.sin(t) if case == TO_NUMPY_CASES[1] else t)
    # a cache keyed on the shape and dtype meets this one
    first = tensors[0]
    tensors.append(rand.tensor(rng, tuple(first.shape), first.dtype, requires_grad=True))
    return {"tensors": tensors}


def _to_numpy_call(answer, inputs):
    seen = []
    for t in inputs["tensors"]:
        before = snapshot(t)
        got = answer(t)
        if t.requires_grad != before[0].requires_grad:
            # not inputs_kept's advice to copy and requires_grad_(True): .numpy() would refuse that copy
            raise Mistake("your code changed `t.requires_grad` on the tensor it was given: the caller's tensor "
                          "(maybe a parameter that must keep learning) is changed for good. detach() gives a "
                          "tensor without history and leaves t as it is.", "input_changed")
        inputs_kept(before, [t], ["t"])
        entry = {"type": type(got).__name__, "array": None, "follows_t": False}
        if isinstance(got, np.ndarray):
            entry["array"] = got.copy()
            with torch.no_grad():
                t.add_(1.0)   # a later in-place change, like an optimizer step
            entry["follows_t"] = not np.array_equal(got, entry["array"], equal_nan=True)
        seen.append(entry)
    return {"results": seen}


def _to_numpy_judge(seen, expected, inputs):
    results = _entries(seen, "results", len(TO_NUMPY_CASES))
    for case, got, want in zip(TO_NUMPY_CASES, results, expected["arrays"]):
        array = got["array"]
        if not isinstance(array, np.ndarray):
            fix = {"list": " .tolist() gives Python lists; .numpy() gives an array.",
                   "Tensor": " It is still a torch.Tensor: end with .numpy()."}.get(got["type"], "")
            raise Mistake(f"for {case}, to_numpy returned a {got['type']}, not a numpy.ndarray.{fix}", "not_an_array")
        if array.shape != want.shape or array.dtype != want.dtype:
            raise Mistake(f"for {case}, the array has shape {array.shape} and dtype {array.dtype}, expected "
                          f"{want.shape} and {want.dtype}: keep the tensor's shape and dtype.", "wrong_dtype")
        if not np.array_equal(array, want):
            if case == TO_NUMPY_CASES[-1] and np.array_equal(array, expected["arrays"][0]):
                raise Mistake(f"for {case}, your function returned the first tensor's values: it returns "
                              "something kept from an earlier call (a cache keyed on the shape and dtype?). "
                              "Copy the values of the t of this call.", "keeps_state")
            raise Mistake(f"for {case}, the array's values differ from the tensor's: were they kept from an "
                          "earlier call (a cache?), or rounded through another dtype on the way?", "wrong_value")
        if got["follows_t"] is not False:
            raise Mistake(f"for {case}, your array shares memory with the tensor: after an in-place change to "
                          "t (t.add_(1)), the array changed too. detach() and .numpy() both share storage: the "
                          "snapshot needs a copy of its own.", "shares_memory")


# --- Exercise: sgd_step -------------------------------------------------------------------------

def _params_with_grads(rng, dtype, count: int, unused: int | None) -> list[torch.Tensor]:
    """Leaves whose .grad comes from a real backward(); params[unused] takes no part (.grad None)."""
    params = [rand.tensor(rng, rand.shape(rng), dtype, requires_grad=True) for _ in range(count)]
    weights = [rand.tensor(rng, p.shape, dtype) for p in params]
    with torch.enable_grad():
        sum((w * torch.sin(p) + p**2).sum() for i, (w, p) in enumerate(zip(weights, params))
            if i != unused).backward()
    return params


def _sgd_step_inputs(rng):
    """The step's parameters, one unused; and a second list for a call from inside the caller's no_grad()."""
    dtype = rand.float_dtype(rng)
    count = rand.integer(rng, 2, 4)
    unused = rand.integer(rng, 0, count - 1)
    params = _params_with_grads(rng, dtype, count, unused)
    lr = float(rand.tensor(rng, (), torch.float64, low=0.01, high=0.5))
    return {"params": params, "lr": lr, "unused": unused,
            "inside_no_grad": _params_with_grads(rng, dtype, rand.integer(rng, 1, 3), None),
            # the next backward()'s gradients, every parameter's this time: a second step on the same
            # tensors, where a momentum kept per parameter from the first call would show
            "next_grads": [rand.tensor(rng, p.shape, dtype) for p in params]}


def _sgd_step_call(answer, inputs):
    params, lr = inputs["params"], inputs["lr"]
    given = list(params)
    versions = [p._version for p in given]
    seen = {"none_grad_error": None}
    try:
        with grad_mode_watched() as grad_mode:
            answer(params, lr)
    except (TypeError, AttributeError) as error:
        if "NoneType" not in str(error) or _fails_on_none_anyway(answer, inputs["inside_no_grad"], lr):
            raise
        return {"none_grad_error": f"{type(error).__name__}: {error}"}
    seen.update({
        "grad_mode_left_off": grad_mode.left_off,
        "list_replaced": len(params) != len(given) or any(p is not q for p, q in zip(params, given)),
        "params": given,   # the tensors a model and its optimizer hold, with their flags
        # An in-place change through autograd (no_grad() included) moves the version counter; .data does not.
        "version_moved": [p._version != v for p, v in zip(given, versions)],
        "grads": [p.grad for p in given],
    })
    with torch.no_grad(), grad_mode_watched() as inside:
        answer(inputs["inside_no_grad"], lr)
    seen["inside_no_grad"] = {"grad_mode_turned_on": inside.turned_on}
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


def _sgd_step_judge(seen, expected, inputs):
    params, lr, unused = inputs["params"], inputs["lr"], inputs["unused"]
    if seen["none_grad_error"] is not None:
        raise Mistake(f"params[{unused}] took no part in the loss, so its .grad is None, and your update failed "
                      f"on it ({str(seen['none_grad_error'])[:120]}). Skip parameters whose .grad is None, as "
                      "optimizers do.", "grad_none_not_skipped")
    _grad_mode_judged(seen, "sgd_step")
    if not isinstance(seen["inside_no_grad"], dict):
        raise Mistake("the check could not read what your function did.", "unreadable")
    _grad_mode_judged(seen["inside_no_grad"], "sgd_step", inside_no_grad=True)
    if seen["list_replaced"] is not False:
        raise Mistake("the list now holds new tensors, not the ones you were given: a model and its optimizer "
                      "keep the original objects, so replacing them changes nothing for training. Update each "
                      "tensor in place.", "params_replaced")
    count = len(params)
    moved, grads = _entries(seen, "version_moved", count), _entries(seen, "grads", count)
    for i, (p, want, old) in enumerate(zip(_entries(seen, "params", count), expected["after"], params)):
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
            continue
        if close(p, old) and not close(g, torch.zeros_like(g)):
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
    _second_step_judged(seen, expected, count)


def _second_step_judged(seen, expected, count: int) -> None:
    """A second call on the same tensors, after the next backward(): plain SGD remembers nothing."""
    if seen["next_step_error"] is not None:
        raise Mistake(f"the first step was right, but a second call on the same tensors, after the next backward(), "
                      f"raised {str(seen['next_step_error'])[:160]}: your function keeps something per parameter "
                      "from one call to the next (a momentum buffer looked up by the tensor itself, which compares "
                      "tensors with ==?). Plain SGD subtracts lr * p.grad of this call and remembers nothing.",
                      "keeps_state")
    for i, (got, want) in enumerate(zip(_entries(seen, "next_step", count), expected["next_step"])):
        if not (isinstance(got, torch.Tensor) and close(got, want)):
            raise Mistake(f"the first step was right, but a second call on the same tensors, after the next "
                          f"backward(), moved params[{i}] by something else than lr * its new .grad: your function keeps "
                          "something per parameter from one call to the next (a momentum or velocity buffer?). "
                          "Plain SGD subtracts lr * p.grad of this call and remembers nothing.", "keeps_state")


# --- Exercise: fix_inplace ----------------------------------------------------------------------

FIX_INPLACE_WIDTH = 3  # the lesson's example's: a width copied from it fits the first x only


def _fix_inplace_inputs(rng):
    """Two x's with other numbers of rows and columns: the first as wide as the lesson's example, the
    second wider, so that a size copied from the example (a mask of 3 values) fails on one of them."""
    dtype = rand.float_dtype(rng)
    rows = rand.integer(rng, 1, 4)
    other_rows = rand.integer(rng, 1, 3)
    other_rows += other_rows >= rows
    cases = []
    for shape in ((rows, FIX_INPLACE_WIDTH), (other_rows, rand.integer(rng, FIX_INPLACE_WIDTH + 1, 6))):
        # v weighs each output, as backward(gradient=v) would: the check's backward covers every element.
        cases.append({"x": rand.tensor(rng, shape, dtype, requires_grad=True), "v": rand.tensor(rng, shape, dtype)})
    return {"cases": cases}


def _fix_inplace_case(answer, x, v):
    before = snapshot(x)
    with data_watched() as data_used, TorchCalls() as torch_calls:
        y = answer(x)
    inputs_kept(before, [x], ["x"])
    dy_dx, backward_error = None, None
    if isinstance(y, torch.Tensor) and y.requires_grad and y.shape == x.shape and y.is_floating_point():
        try:
            (dy_dx,) = torch.autograd.grad(y, x, v.to(y.dtype), allow_unused=True)
        except RuntimeError as error:
            if "inplace operation" not in str(error):
                raise
            backward_error = str(error).split(" Hint:")[0].rstrip(".")
    return {"y": y, "dy_dx": dy_dx, "backward_error": backward_error, "used_data": bool(data_used),
            "used_detach": torch_calls.count("detach") + torch_calls.count("detach_") > 0, "raised": None}


def _fix_inplace_call(answer, inputs):
    seen, errors = [], []
    for case in inputs["cases"]:
        try:
            seen.append(_fix_inplace_case(answer, case["x"], case["v"]))
        except Mistake:
            raise
        except Exception as error:  # judged below if the answer ran on an x of another shape
            errors.append(error)
            seen.append({"raised": f"{type(error).__name__}: {error}"})
    if len(errors) == len(seen):
        raise errors[0]
    return {"cases": seen}


def _shape_hard_coded(cases, seen) -> None:
    """Right for an x of one shape, raised or shaped wrong for another: a size fixed in the code."""
    shapes = [tuple(case["x"].shape) for case in cases]
    ran = [shape for shape, got in zip(shapes, seen) if got.get("raised") is None
           and isinstance(got.get("y"), torch.Tensor) and tuple(got["y"].shape) == shape]
    if not ran:
        return
    fixed = ("a size your code fixes instead of taking it from x (a tensor of 3 values fits an x of 3 columns "
             "only). x may have any number of rows and columns: take every size from x itself.")
    for shape, got in zip(shapes, seen):
        if got.get("raised") is not None:
            raise Mistake(f"for an x of shape {ran[0]} your function ran, but for an x of shape {shape} it raised "
                          f"{str(got['raised'])[:200]}: {fixed}", "wrong_shape")
        y = got.get("y")
        if isinstance(y, torch.Tensor) and tuple(y.shape) != shape:
            raise Mistake(f"for an x of shape {ran[0]} your result has x's shape, but for an x of shape {shape} "
                          f"it has shape {tuple(y.shape)}: {fixed}", "wrong_shape")


def _fix_inplace_judge(seen, expected, inputs):
    cases = inputs["cases"]
    got_cases = _entries(seen, "cases", len(cases))
    if not all(isinstance(got, dict) for got in got_cases):
        raise Mistake("the check could not read what your function did: return what the exercise asks for.",
                      "unreadable")
    _shape_hard_coded(cases, got_cases)
    for case, got, want in zip(cases, got_cases, expected["cases"]):
        if got.get("raised") is not None:
            raise Mistake(f"for an x of shape {tuple(case['x'].shape)}, your function raised "
                          f"{str(got['raised'])[:200]}.", "raised")
        _fix_inplace_case_judged(got, want)


def _fix_inplace_case_judged(seen, expected):
    y, dy_dx = seen.get("y"), seen.get("dy_dx")
    require(diagnose_tensor(expected["y"], y, "the result"))
    require(diagnose_values(expected["y"], y, "the result"))
    if flags_of(y).grad_fn is None:
        raise Mistake("the result has no grad_fn, so no gradient can reach x: it was cut off the graph "
                      "(detach(), no_grad(), or NumPy on the way?). Keep every step a tensor operation "
                      "that autograd records.", "cut_off_graph")
    if seen["backward_error"] is not None and seen["used_data"] is True:
        raise Mistake("your function uses .data, which the exercise rules out: .data hides an in-place change "
                      "from autograd's version counter without undoing it, so backward() would use changed values "
                      "without a word. Here another in-place step was not hidden, and backward() through your "
                      "result still fails: PyTorch says: " + str(seen["backward_error"])[:300] + ". Make the step "
                      "that changes the saved tensor out of place instead, without .data.", "data_bypass")
    if seen["backward_error"] is not None:
        raise Mistake("backward() through your result fails: a tensor was changed in place after autograd saved "
                      "it for backward. PyTorch says: " + str(seen["backward_error"])[:300] + ". Find the "
                      "operation that saved it, and make the step that changes it afterwards out of place "
                      "(or give that step a copy).", "inplace_saved")
    if seen["used_data"] is not False:
        raise Mistake("your function uses .data: that hides the in-place change from the version counter, so "
                      "backward() runs, on values it did not save, and the gradient is wrong without a word. "
                      "Make the offending step out of place instead.", "data_bypass")
    if seen.get("used_detach") is True:
        raise Mistake("your function calls detach(), which the exercise rules out: no gradient flows through a "
                      "detached tensor, and since it shares the memory of the tensor it came from, a change made "
                      "through it is hidden from autograd too. Keep every step recorded, and make the offending "
                      "step out of place instead.", "detach_bypass")
    if dy_dx is None:
        raise Mistake("the result does not depend on the x you were given: it was built from a copy (a new "
                      "leaf, cut off from x). Compute it from x itself.", "copy_of_x")
    what = "the gradient that backward() through your result puts in x"
    if diagnose_tensor(expected["dy_dx"], dy_dx) is None and expected["dy_dx"].any() and not dy_dx.any():
        raise Mistake(f"{what} is all zeros: your result has the right values, but none of them reaches x "
                      "through a recorded step (were they computed under no_grad() or from a copy of x, then "
                      "joined to x by a step whose gradient is zero, such as x * 0?). Keep every step of the "
                      "computation recorded, and make only the offending in-place step out of place.",
                      "no_gradient")
    require(diagnose_gradient(expected["dy_dx"], dy_dx, what))


# --- Exercise: freeze_all_but_last --------------------------------------------------------------

ACTIVATIONS = (nn.Tanh, nn.ReLU, nn.Sigmoid)
# Activations after the last Linear: none, one (after a Linear without bias: a weight alone), two.
# "model[-1] or else model[-2]" fails the last; "the last Linear's weight and bias" the middle one.
TAILS = (0, 1, 2)


def _mlp(rng, dtype, tail: int, linears: tuple[int, int] = (2, 5)) -> nn.Sequential:
    widths = [rand.integer(rng, 2, 5) for _ in range(rand.integer(rng, linears[0] + 1, linears[1] + 1))]
    layers = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        last = i == len(widths) - 2
        layers.append(nn.Linear(a, b, bias=not (last and tail == 1), dtype=dtype))
        for _ in range(tail if last else 1):
            layers.append(ACTIVATIONS[rand.integer(rng, 0, len(ACTIVATIONS) - 1)]())
    return _filled(nn.Sequential(*layers), rng)


def _models(rng, tails, linears=(2, 5)):
    dtype = rand.float_dtype(rng)
    cases = []
    for tail in tails:
        model = _mlp(rng, dtype, tail, linears)
        cases.append({"model": model, "x": rand.tensor(rng, (rand.integer(rng, 1, 4), model[0].in_features), dtype)})
    return {"cases": cases}


def _freeze_output_inputs(rng):
    """The core's models end in a Linear with weight and bias; at least three Linears, so freezing
    model[0] alone (or everything but the first two) is not enough."""
    return _models(rng, (0, 0), linears=(3, 5))


def _freeze_inputs(rng):
    return _models(rng, TAILS)


def _freeze_call(answer, inputs):
    seen = []
    for case in inputs["cases"]:
        model, x = case["model"], case["x"]
        names = _layer_names(model)
        before = snapshot(*names.values())
        modes = [m.training for m in model.modules()]
        with grad_mode_watched() as grad_mode, TorchCalls() as torch_calls:
            try:
                returned = answer(model)
            except AttributeError as error:
                _bias_none_judged(model, error)
                raise
        now = _layer_names(model)
        replaced = list(now) != list(names) or any(p is not q for p, q in zip(now.values(), names.values()))
        requires = {n: bool(p.requires_grad) for n, p in names.items()}
        if any(requires.values()) and not replaced:
            model(x).sum().backward()   # the frozen ones must get no gradient at all
        # On a module, `.requires_grad = True` is a plain Python attribute: it changes no parameter.
        # Named as a learner writes them: the last layer as model[-1].
        plain = [where for where, module in (("model", model), *(
                     (f"model[{i if i < len(model) - 1 else -1}]", m) for i, m in enumerate(model)))
                 if "requires_grad" in vars(module)]
        seen.append({"grad_mode_left_off": grad_mode.left_off, "replaced": replaced, "plain_flag": plain,
                     "mode_changed": [m.training for m in model.modules()] != modes,
                     "detached": torch_calls.count("detach") > 0,
                     "returned_other_model": isinstance(returned, nn.Module) and returned is not model,
                     "changed": _values_changed(names, before), "requires_grad": requires,
                     "grad_is_none": {n: p.grad is None for n, p in names.items()}})
    return {"cases": seen}


def _bias_none_judged(model: nn.Sequential, error: AttributeError) -> None:
    """`last.bias.requires_grad_(True)` on a Linear built with bias=False: name the None, not the error."""
    without = [i for i, layer in enumerate(model) if isinstance(layer, nn.Linear) and layer.bias is None]
    if without and "NoneType" in str(error):
        raise Mistake(f"your code called a method on None ({error}): model[{without[0]}] is a Linear built with "
                      f"bias=False, so model[{without[0]}].bias is None, not a parameter. Work with the layer's "
                      "own requires_grad_(), which sets the flag on whatever parameters it has.", "bias_none")


def _freeze_output_judge(seen, expected, inputs):
    _freeze_judge(seen, expected, inputs, name="freeze_all_but_output")


def _listed(names: set[str], one: str, many: str) -> str:
    shown = sorted(names)[:3]
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return f"{', '.join(shown)}{more} {one if len(names) == 1 else many}"


def _plain_flag_judged(plain, frozen: set[str], training: set[str]) -> None:
    """The likeliest slip, named: `model[-1].requires_grad = True` on a module sets a plain attribute."""
    # The kernel sends where it found the attribute: only names it can honestly send are repeated.
    if not isinstance(plain, list) or not plain or \
            not all(isinstance(where, str) and re.fullmatch(r"model(\[-?\d{1,3}\])?", where) for where in plain):
        return
    wrong = (_listed(frozen, "is still frozen", "are still frozen") if frozen
             else _listed(training, "still requires grad", "still require grad"))
    raise Mistake(f"`{plain[0]}.requires_grad = ...` set a plain Python attribute on the module and changed none "
                  f"of its parameters (a module has no requires_grad flag of its own), so {wrong}. For a module, "
                  "requires_grad_() is the call that sets the flag on its parameters.", "plain_requires_grad")


def _freeze_judge(seen, expected, inputs, name="freeze_all_but_last"):
    cases = inputs["cases"]
    for case, got, keep, last in zip(cases, _entries(seen, "cases", len(cases)), expected["trainable"],
                                     expected["last"]):
        model, keep = case["model"], set(keep)
        names = list(_layer_names(model))
        layer = (f"model[-1] (here model[{last}]), the output layer," if name == "freeze_all_but_output"
                 else f"model[{last}], the last layer with parameters,")
        _grad_mode_judged(got, name)
        if got["replaced"] is not False:
            raise Mistake("the model's layers or parameters were replaced: freeze the existing parameters in "
                          "place, on the objects the model (and its optimizer) already hold.", "params_replaced")
        if got["changed"]:
            raise Mistake(f"the values of {got['changed'][0]} changed: freezing changes flags, never values.",
                          "input_changed")
        requires = got["requires_grad"]
        if sorted(requires) != sorted(names):
            raise Mistake("the check could not read the model's parameters back.", "unreadable")
        trainable = {n for n in names if requires[n] is True}
        if trainable != keep:
            _plain_flag_judged(got.get("plain_flag"), keep - trainable, trainable - keep)
            if got.get("returned_other_model") is True and trainable - keep:
                raise Mistake("your function returned another model, and the model it was given is unchanged: "
                              "what it returns is ignored. Freeze the parameters of `model` itself, in place "
                              "(a copy, such as copy.deepcopy(model), has parameters of its own).", "froze_a_copy")
        if not trainable:
            tail = [type(layer).__name__ for layer in list(model)[last + 1:]]
            if tail:
                raise Mistake(f"{layer} was frozen too: every parameter is "
                              f"frozen, so nothing can train. The model ends with {', '.join(tail)}, which "
                              f"{'has' if len(tail) == 1 else 'have'} no parameters.", "all_frozen")
            raise Mistake(f"every parameter is frozen, so nothing can train: {layer} should keep "
                          "requires_grad=True.", "all_frozen")
        if keep - trainable and trainable - keep:
            raise Mistake(f"{_listed(keep - trainable, 'no longer requires', 'no longer require')} grad, and "
                          f"{_listed(trainable - keep, 'still requires', 'still require')} grad: the other way "
                          f"round from what was asked. {layer} is the one that should keep training, and every "
                          "layer before it should be frozen.", "last_frozen")
        if keep - trainable:
            raise Mistake(f"{_listed(keep - trainable, 'no longer requires', 'no longer require')} grad: {layer} "
                          "is the one that should keep training.", "last_frozen")
        if trainable - keep:
            why = ""
            if got.get("mode_changed") is True:
                why = (" model.eval() (or a layer's eval()) switches how layers such as Dropout and batch norm "
                       "compute, not gradients: it changes no requires_grad flag.")
            elif got.get("detached") is True:
                why = (" `p = p.detach()` only binds the name p to a detached copy: the parameter the model "
                       "holds is untouched. Call requires_grad_(False) on the parameter (or its layer) itself.")
            raise Mistake(f"{_listed(trainable - keep, 'still requires', 'still require')} grad: every layer "
                          f"before model[{last}] should be frozen.{why}", "not_frozen")
        for n in names:
            if got["grad_is_none"][n] is not (n not in keep):
                raise Mistake(f"after a backward() through the model, {n}.grad is "
                              f"{'None' if got['grad_is_none'][n] else 'set'}, which its flags cannot explain.",
                              "grad_unexplained")


# --- Exercises -----------------------------------------------------------------------------------
# In the lesson's order: the core first (stop_gradient_product, freeze_all_but_output), then the
# going-further sections'.

stop_gradient_product = Exercise(_stop_gradient_product_inputs, _stop_gradient_product_call, _stop_gradient_product_judge, [
    "detach() returns the same values with no history: to autograd, a detached tensor is a constant.",
    "Only one of the two factors should be a constant; the other must stay the x you were given.",
    "With x**2 held constant, d(x * c)/dx = c = x**2: check that your z gives that, not 3x**2 or 2x**2.",
])
freeze_all_but_output = Exercise(_freeze_output_inputs, _freeze_call, _freeze_output_judge, [
    "requires_grad_(False) on a parameter freezes it, and a module's requires_grad_ sets it on all of "
    "the module's parameters at once.",
    "An nn.Sequential is indexed like a list, and each of its layers is a module with a requires_grad_() "
    "of its own.",
    "Switching everything off and one layer back on is easier than the other way round.",
])
sgd_step = Exercise(_sgd_step_inputs, _sgd_step_call, _sgd_step_judge, [
    "The model holds these tensor objects: change each one in place (an augmented assignment or an "
    "underscore method), never by binding a new tensor to the name.",
    "An in-place change to a leaf that requires grad is refused while autograd records. Which of this "
    "lesson's tools stops the recording, and puts back whatever mode it found when it ends?",
    "Two of the exercise's rules are about .grad: which parameters to leave alone, and what .grad holds "
    "once you are done. For an optimizer, None means 'no gradient'; a tensor of zeros does not.",
])
evaluate = Exercise(_evaluate_inputs, _evaluate_call, _evaluate_judge, [
    "Two separate switches are involved: one changes how layers such as Dropout compute, the other "
    "stops autograd from recording.",
    "A module remembers its mode in `model.training`. Read it before you change anything, so you can "
    "restore it before returning.",
    "Autograd's mode must come back as the caller had it, on or off: the check also calls evaluate() "
    "inside its own no_grad(). Which way of stopping the recording restores the mode it found?",
])
to_numpy = Exercise(_to_numpy_inputs, _to_numpy_call, _to_numpy_judge, [
    "NumPy cannot carry a graph: while autograd records, .numpy() refuses a tensor that requires grad until "
    "it is cut out of it.",
    "Both detach() and .numpy() share storage with the original tensor; a snapshot needs memory of its own.",
    "Of the tensor methods in this lesson, which one gives a tensor memory of its own? Your array must "
    "not be a view of t's storage.",
])
fix_inplace = Exercise(_fix_inplace_inputs, _fix_inplace_call, _fix_inplace_judge, [
    "Run the given function and backward() once, and read PyTorch's message: which operation's output "
    "does it name, and at which version?",
    "That operation saved its output for backward. Every in-place step on that same tensor afterwards "
    "bumps its version; in-place steps on tensors nobody saved are harmless.",
    "Only the steps that change the saved tensor matter, and the saved value must stay as it was saved: "
    ".data only hides the change from autograd, and no_grad() does not even hide it.",
])
freeze_all_but_last = Exercise(_freeze_inputs, _freeze_call, _freeze_judge, [
    "As in freeze_all_but_output, except that the layer to keep is not always model[-1].",
    "The last layer *with parameters* is not always model[-1], nor model[-2]: an activation has none, "
    "and a model may end with several. How can you ask a layer whether it has parameters?",
    "A last Linear may have no bias: work with the layer, not with its weight and bias by name.",
])


# The lesson's last cell calls check.progress(globals()); CORE is its first pass, the lesson's essentials.
EXERCISES, CORE, progress, ERROR_SECTIONS = close_lesson(
    globals(), core=("stop_gradient_product", "freeze_all_but_output"), written={"eval_and_no_grad": 2})
