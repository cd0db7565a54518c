"""`evaluate(model, x)`: a model's outputs in eval mode with nothing recorded, the caller's modes restored."""
from contextlib import contextmanager, nullcontext

import torch
from torch import nn

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_tensor, diagnose_values
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of
from ...checks.parameters import layer_names, values_changed
from ...checks.random_models import filled
from ...checks.read_back import entries
from ...checks.technique import grad_mode_judged, grad_mode_watched
from ...exercise import Exercise


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


def _mlp_with_dropout(rng, dtype, outputs: int | None = None) -> nn.Sequential:
    widths = [rand.integer(rng, 3, 6) for _ in range(rand.integer(rng, 2, 4))]
    layers = []
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b, dtype=dtype), nn.Tanh(), nn.Dropout(p=0.5)]
    layers.append(nn.Linear(widths[-1], outputs or rand.integer(rng, 1, 3), dtype=dtype))
    return filled(nn.Sequential(*layers), rng)


# A validation loop calls evaluate() inside its own no_grad(), on a model already in eval mode: the
# trial calls that case so, and an answer that switches recording on "to restore it" is caught.
EVALUATE_INSIDE_NO_GRAD = 1


EVALUATE_SAME_MODEL_AGAIN = 2  # the first case's model, with another x of the same shape
EVALUATE_FINE_TUNED = 3  # a model whose first layer the caller froze: evaluate() must leave it frozen


def inputs(rng):
    """One model in train mode, one in eval mode: the answer must leave each as it found it. Then the
    first model again, with another x of the same shape: a cache keyed on the model and the shape
    meets it. Last, a model being fine-tuned, its first layer frozen (flags put back to True unfreeze it),
    with one output and a batch of one row, where a squeeze() changes the shape."""
    dtype = rand.float_dtype(rng)
    cases = []
    for training in (True, False):
        model = _mlp_with_dropout(rng, dtype).train(training)
        cases.append({"model": model, "x": rand.tensor(rng, (rand.integer(rng, 1, 5), model[0].in_features), dtype)})
    cases.append({"model": cases[0]["model"], "x": rand.tensor(rng, tuple(cases[0]["x"].shape), dtype)})
    fine_tuned = _mlp_with_dropout(rng, dtype, outputs=1).train(rand.integer(rng, 0, 1) == 1)
    fine_tuned[0].requires_grad_(False)
    cases.append({"model": fine_tuned, "x": rand.tensor(rng, (1, fine_tuned[0].in_features), dtype)})
    return {"cases": cases}


def call(answer, inputs):
    seen = []
    for i, case in enumerate(inputs["cases"]):
        model, x = case["model"], case["x"]
        names = {"x": x, **layer_names(model)}
        before = [t.detach().clone() for t in names.values()]
        flags = {n: p.requires_grad for n, p in names.items() if n != "x"}
        modes = [m.training for m in model.modules()]
        with torch.no_grad() if i == EVALUATE_INSIDE_NO_GRAD else nullcontext():
            with grad_mode_watched() as grad_mode, _forward_recorded(model) as recorded:
                out = answer(model, x)
        seen.append({"output": out, "grad_mode_left_off": grad_mode.left_off,
                     "forward_recorded": any(recorded),
                     "flag_set_by_hand": any(not outer and inner for outer, inner in recorded.modes),
                     "grad_mode_turned_on": grad_mode.turned_on,
                     "frozen": [n for n, p in names.items() if n != "x" and flags[n] and not p.requires_grad],
                     "unfrozen": [n for n, p in names.items() if n != "x" and not flags[n] and p.requires_grad],
                     "changed": values_changed(names, before),
                     "modes_kept": [m.training for m in model.modules()] == modes,
                     "mode_after": "train" if model.training else "eval"})
    return {"cases": seen}


def judge(seen, expected, inputs):
    cases = inputs["cases"]
    for i, (case, got, want) in enumerate(zip(cases, entries(seen, "cases", len(cases)), expected["outputs"])):
        mode = "train" if case["model"].training else "eval"
        grad_mode_judged(got, "evaluate", inside_no_grad=i == EVALUATE_INSIDE_NO_GRAD)
        out = got["output"]
        if isinstance(out, torch.Tensor) and out.shape != want.shape and out.shape == want.squeeze().shape:
            raise Mistake(f"the output has shape {tuple(out.shape)}, expected {tuple(want.shape)}, the shape model(x) "
                          "gives: a squeeze() dropped its dimensions of size 1 (a batch of one row, a model with one "
                          "output). Return model(x) as it comes.", "wrong_shape")
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
        if got["unfrozen"]:
            raise Mistake(f"the caller had frozen {got['unfrozen'][0]} (it is fine-tuning the layers after it), and "
                          "after evaluate() it requires grad again: setting every requires_grad back to True "
                          "unfreezes what was frozen. Leave the flags alone: no_grad() stops the recording without "
                          "touching any of them.", "params_unfrozen")
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


HINTS = [
    "Two separate switches are involved: one changes how layers such as Dropout compute, the other "
    "stops autograd from recording.",
    "A module remembers its mode in `model.training`. Read it before you change anything, so you can "
    "restore it before returning.",
    "Autograd's mode must come back as the caller had it, on or off: the check also calls evaluate() "
    "inside its own no_grad(). Which way of stopping the recording restores the mode it found?",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
