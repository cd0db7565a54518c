"""`freeze_all_but_output(model)`: freeze every parameter but the output layer's.

Its call and judge are freeze_all_but_last's too, on models of any tail.
"""
import re

from torch import nn

from ...checks import random_inputs as rand
from ...checks.mistakes import Mistake
from ...checks.parameters import layer_names, values_changed
from ...checks.random_models import filled
from ...checks.read_back import entries
from ...checks.technique import TorchCalls, grad_mode_judged, grad_mode_watched, snapshot
from ...exercise import Exercise


ACTIVATIONS = (nn.Tanh, nn.ReLU, nn.Sigmoid)


def mlp(rng, dtype, tail: int, linears: tuple[int, int] = (2, 5)) -> nn.Sequential:
    widths = [rand.integer(rng, 2, 5) for _ in range(rand.integer(rng, linears[0] + 1, linears[1] + 1))]
    layers = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        last = i == len(widths) - 2
        layers.append(nn.Linear(a, b, bias=not (last and tail == 1), dtype=dtype))
        for _ in range(tail if last else 1):
            layers.append(ACTIVATIONS[rand.integer(rng, 0, len(ACTIVATIONS) - 1)]())
    return filled(nn.Sequential(*layers), rng)


def models(rng, tails, linears=(2, 5), one_linear: bool = False):
    """A model per tail; with ``one_linear``, one more whose only Linear is the last layer with parameters
    (nothing to freeze). The second model is in eval mode: freezing changes neither mode."""
    dtype = rand.float_dtype(rng)
    drawn = [mlp(rng, dtype, tail, linears) for tail in tails]
    if one_linear:
        drawn.append(mlp(rng, dtype, rand.integer(rng, 0, 2), (1, 1)))
    cases = []
    for i, model in enumerate(drawn):
        model.train(i != 1)
        cases.append({"model": model, "x": rand.tensor(rng, (rand.integer(rng, 1, 4), model[0].in_features), dtype)})
    return {"cases": cases}


def inputs(rng):
    """The core's models end in a Linear with weight and bias; at least three Linears, so freezing
    model[0] alone (or everything but the first two) is not enough."""
    return models(rng, (0, 0), linears=(3, 5))


def call(answer, inputs):
    seen = []
    for i, case in enumerate(inputs["cases"]):
        model, x = case["model"], case["x"]
        names = layer_names(model)
        before = snapshot(*names.values())
        modes = [m.training for m in model.modules()]
        try:
            with grad_mode_watched() as grad_mode, TorchCalls() as torch_calls:
                try:
                    returned = answer(model)
                except AttributeError as error:
                    _bias_none_judged(model, error)
                    raise
                except RuntimeError as error:
                    _truth_of_parameter_judged(error)
                    raise
        except Mistake:
            raise
        except Exception as error:
            if i == 0:  # on the first model, said as raised
                raise
            seen.append({"raised": f"{type(error).__name__}: {error}"})  # ran on the first: judged below
            continue
        now = layer_names(model)
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
                     "changed": values_changed(names, before), "requires_grad": requires,
                     "grad_is_none": {n: p.grad is None for n, p in names.items()}})
    return {"cases": seen}


def _bias_none_judged(model: nn.Sequential, error: AttributeError) -> None:
    """`last.bias.requires_grad_(True)` on a Linear built with bias=False: name the None, not the error."""
    without = [i for i, layer in enumerate(model) if isinstance(layer, nn.Linear) and layer.bias is None]
    if without and "NoneType" in str(error):
        raise Mistake(f"your code called a method on None ({error}): model[{without[0]}] is a Linear built with "
                      f"bias=False, so model[{without[0]}].bias is None, not a parameter. Work with the layer's "
                      "own requires_grad_(), which sets the flag on whatever parameters it has.", "bias_none")


def _truth_of_parameter_judged(error: RuntimeError) -> None:
    """`any(layer.parameters())` or `if layer.weight:` asks a tensor for one True or False."""
    if "Boolean value of Tensor" in str(error):
        raise Mistake(f"your code asked a parameter for one True or False ({error}): `any(layer.parameters())` "
                      "and `if layer.weight:` test the tensors' values, not whether they exist. To ask whether a "
                      "layer has parameters, use `list(layer.parameters())`: an empty list (an activation's) is "
                      "false, any other true.", "truth_of_tensor")


def judge(seen, expected, inputs):
    judge_freeze(seen, expected, inputs, name="freeze_all_but_output")


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


def judge_freeze(seen, expected, inputs, name: str):
    """The judge of both freezing exercises, named in its messages as ``name``."""
    cases = inputs["cases"]
    for case, got, keep, last in zip(cases, entries(seen, "cases", len(cases)), expected["trainable"],
                                     expected["last"]):
        model, keep = case["model"], set(keep)
        names = list(layer_names(model))
        layer = (f"model[-1] (here model[{last}]), the output layer," if name == "freeze_all_but_output"
                 else f"model[{last}], the last layer with parameters,")
        if got.get("raised") is not None:
            layers = ", ".join(type(m).__name__ for m in model)
            raise Mistake(f"your function ran on the first model, but on a model of {len(model)} layer"
                          f"{'s' if len(model) > 1 else ''} ({layers}) it raised {str(got['raised'])[:160]}. Take "
                          "every index from the model you are given: the layer to keep is "
                          f"{layer.rstrip(',')}.", "raised_on_other_model")
        grad_mode_judged(got, name)
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
            both = (f"{_listed(keep - trainable, 'no longer requires', 'no longer require')} grad, and "
                    f"{_listed(trainable - keep, 'still requires', 'still require')} grad")
            if trainable == set(names) - keep:
                raise Mistake(f"{both}: the other way round from what was asked. {layer} is the one that should "
                              "keep training, and every layer before it should be frozen.", "last_frozen")
            raise Mistake(f"{both}: your function kept another layer training. {layer} is the one to keep: find it "
                          "in the model you are given (a fixed index fits one model only), keep it training and "
                          "freeze every layer before it.", "other_layer_kept")
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
        if got.get("mode_changed") is not False:
            mode = "train" if model.training else "eval"
            raise Mistake(f"the flags are right, but the model was in {mode} mode and your function switched it "
                          "(or some of its layers) to the other: model.eval() and model.train() change how layers "
                          "such as Dropout compute, not which parameters train. Change only the requires_grad "
                          "flags.", "mode_changed")
        for n in names:
            if got["grad_is_none"][n] is not (n not in keep):
                raise Mistake(f"after a backward() through the model, {n}.grad is "
                              f"{'None' if got['grad_is_none'][n] else 'set'}, which its flags cannot explain.",
                              "grad_unexplained")


HINTS = [
    "requires_grad_(False) on a parameter freezes it, and a module's requires_grad_ sets it on all of "
    "the module's parameters at once.",
    "An nn.Sequential is indexed like a list, and each of its layers is a module with a requires_grad_() "
    "of its own.",
    "Switching everything off and one layer back on is easier than the other way round.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
