"""`fit_linear(x, y, steps, lr)`: a linear model fitted from zeros by full-batch SGD on MSE, for one output
and for several."""
from contextlib import contextmanager

import torch
from torch import nn
from torch.nn.modules.module import register_module_forward_hook

from ...checks import random_inputs as rand
from ...checks.compare import largest_difference, same_number
from ...checks.diagnose import diagnose_tensor
from ...checks.mistakes import Mistake, require
from ...checks.optimizer_steps import step_summary, watching_steps
from ...checks.parameters import params_replaced
from ...checks.read_back import listed
from ...checks.technique import inputs_kept, snapshot
from ...exercise import Exercise


@contextmanager
def watching_linear_rows():
    """Rows of every batch an nn.Linear sees inside: one entry per forward pass of a linear layer."""
    rows = []

    def seen(module, args, out):
        if isinstance(module, nn.Linear) and args and isinstance(args[0], torch.Tensor) and args[0].dim() >= 1:
            rows.append(int(args[0].shape[0]))

    handle = register_module_forward_hook(seen)
    try:
        yield rows
    finally:
        handle.remove()


def _problem(rng, d_out: int) -> dict:
    n, d_in = rand.integer(rng, 8, 24), rand.integer(rng, 1, 4)
    if d_out > 1 and d_in == d_out:  # so that a layer built the wrong way round shows
        d_in += 1
    x = rand.tensor(rng, (n, d_in))
    true_w, true_b = rand.tensor(rng, (d_out, d_in)), rand.tensor(rng, (d_out,))
    y = x @ true_w.T + true_b + 0.1 * rand.tensor(rng, (n, d_out), low=-1.0, high=1.0)
    # few, small steps: the weights are still far from the least-squares fit, so where the run
    # started and how many steps it took both show in the result
    return {"x": x, "y": y, "steps": rand.integer(rng, 5, 20),
            "lr": float(rand.tensor(rng, (), torch.float64, 0.02, 0.1))}


def inputs(rng):
    """Two fits: one output (y of shape (n, 1), where a squeezed y broadcasts), then several."""
    return {"fits": [_problem(rng, 1), _problem(rng, rand.integer(rng, 2, 3))]}


def _shapes(fit: dict) -> str:
    return f"x of shape {tuple(fit['x'].shape)} and y of shape {tuple(fit['y'].shape)}"


def call(answer, inputs):
    seen = []
    for fit in inputs["fits"]:
        x, y = fit["x"], fit["y"]
        kept = snapshot(x, y)
        with watching_steps() as steps, watching_linear_rows() as rows:
            try:
                model = answer(x, y, fit["steps"], fit["lr"])
            except RuntimeError as error:
                _model_call_failed(error, fit)
                raise
        inputs_kept(kept, [x, y], ["x", "y"])
        module = isinstance(model, nn.Module)
        params = list(model.parameters()) if module else []
        seen.append({"is_linear": isinstance(model, nn.Linear), "returned": type(model).__name__,
                     "weight": getattr(model, "weight", None) if module else None,
                     "bias": getattr(model, "bias", None) if module else None,
                     "steps": step_summary(steps, params), "rows": rows,
                     # what else the SGD was told, beyond lr: plain SGD has no momentum, decay or dampening
                     "sgd_extras": sorted({f"{key}={group[key]}" for s in steps for group in s["object"].param_groups
                                           for key in ("momentum", "weight_decay", "dampening")
                                           if group.get(key, 0) not in (0, 0.0, None)} |
                                          {"nesterov=True" for s in steps for group in s["object"].param_groups
                                           if group.get("nesterov")})})
    return {"fits": seen}


def _model_call_failed(error: RuntimeError, fit: dict) -> None:
    """model(x) refused: a layer of the wrong size or dtype, said in the exercise's terms."""
    d_in, d_out = fit["x"].shape[1], fit["y"].shape[1]
    if "shapes cannot be multiplied" in str(error):
        raise Mistake(f"model(x) failed ({error}): x has d_in = {d_in} columns, and nn.Linear's first argument "
                      f"is how many inputs it takes. Build nn.Linear(d_in, d_out), here nn.Linear({d_in}, {d_out}): "
                      "x.shape[1] inputs, y.shape[1] outputs.", "wrong_layer_size") from None
    if "must have the same dtype" in str(error):
        raise Mistake(f"model(x) failed ({error}): your model's parameters and x have different dtypes (a .double() "
                      f"on the model?). x is {fit['x'].dtype}: keep nn.Linear's default dtype, which is x's.",
                      "wrong_dtype") from None


def fit_close(got: torch.Tensor, expected: torch.Tensor) -> bool:
    """Looser than float32 rounding: the same sums in a different order drift over many steps."""
    return isinstance(got, torch.Tensor) and got.shape == expected.shape and bool(torch.isfinite(got).all()) \
        and torch.allclose(got.double(), expected.double(), rtol=1e-4, atol=1e-5)


def judge(seen, expected, inputs):
    fits = listed(seen["fits"], len(inputs["fits"]), "the fits")
    for fit, got, want in zip(inputs["fits"], fits, listed(expected["fits"], len(inputs["fits"]), "the fits")):
        _judge_fit(got, want, fit)


def _judge_fit(seen, expected, fit):
    n, wanted_steps, lr, shapes = fit["x"].shape[0], fit["steps"], fit["lr"], _shapes(fit)
    if seen["is_linear"] is not True:
        raise Mistake(f"return the trained nn.Linear, got {seen['returned']}"
                      f"{': a missing `return`?' if seen['returned'] == 'NoneType' else ''}.", "not_a_model")
    got_w, got_b, steps = seen["weight"], seen["bias"], seen["steps"]
    if got_b is None and isinstance(got_w, torch.Tensor):
        raise Mistake("your nn.Linear has no bias (it was built with bias=False), so it can only fit lines "
                      "through the origin: the exercise's model is nn.Linear(d_in, d_out) with its bias, which "
                      "starts at zeros like the weight.", "no_bias")
    d_in, d_out = fit["x"].shape[1], fit["y"].shape[1]
    if isinstance(got_w, torch.Tensor) and got_w.dim() == 2 and tuple(got_w.shape) != (d_out, d_in):
        raise Mistake(f"for {shapes}, your nn.Linear's weight has shape {tuple(got_w.shape)}: the model must map "
                      f"d_in = {d_in} inputs to d_out = {d_out} outputs, one per column of y. Build "
                      "nn.Linear(x.shape[1], y.shape[1]).", "wrong_layer_size")
    require(diagnose_tensor(expected["weight"], got_w, f"the weight (for {shapes})"))
    require(diagnose_tensor(expected["bias"], got_b, f"the bias (for {shapes})"))
    if steps["count"] == 0:
        raise Mistake("no optimizer.step() ran: train with torch.optim.SGD(model.parameters(), lr=lr) and "
                      "call its step() once per training step.", "no_step")
    if steps["on_model"] is not True:
        raise params_replaced("the optimizer was built")
    if steps["optimizers"] != ["SGD"]:
        raise Mistake(f"your training used {', '.join(map(str, steps['optimizers']))}: the exercise asks "
                      "for torch.optim.SGD, so that every correct answer gives the same numbers.", "wrong_optimizer")
    if not all(isinstance(v, float) and same_number(v, lr) for v in steps["lrs"]):
        raise Mistake(f"your optimizer's learning rate is {steps['lrs']}, not the lr given ({lr:.6g}).", "wrong_lr")
    if seen.get("sgd_extras"):
        raise Mistake(f"your SGD was built with {', '.join(map(str, seen['sgd_extras']))}: the exercise's "
                      "optimizer is plain torch.optim.SGD(model.parameters(), lr=lr), so that every correct answer "
                      "gives the same numbers.", "wrong_optimizer")
    first = steps["first_values"]
    if not isinstance(first, list) or any(not isinstance(v, torch.Tensor) or v.any() for v in first):
        raise Mistake("the weights did not start from zeros, so your run differs from the check's reference "
                      "run, which starts there: set weight and bias to zeros before the first step.",
                      "not_zero_start")
    if any(r != n for r in seen["rows"]):
        raise Mistake(f"the model ran on batches of {sorted(set(seen['rows']))} rows: each step should use the "
                      f"whole of x ({n} rows), one forward pass per step.", "not_full_batch")
    if all(steps["no_gradient"]):
        raise Mistake("the weights never left their zero start: every time step() ran, .grad was None or "
                      "zero. step() must come after backward(), with no reset in between: zero_grad() "
                      "between backward() and step() throws the gradient away.", "no_gradient_at_step")
    if steps["count"] != wanted_steps:
        raise Mistake(f"your model took {steps['count']} steps, expected {wanted_steps}: call step() exactly "
                      "`steps` times.", "step_count")
    if fit_close(got_w, expected["weight"]) and fit_close(got_b, expected["bias"]):
        return
    stale_w, stale_b = expected["never_zeroed"]
    blew_up = not torch.isfinite(got_w).all() and not torch.isfinite(stale_w).all()
    if blew_up or (fit_close(got_w, stale_w) and fit_close(got_b, stale_b)):
        raise Mistake("your weights match a run where .grad is never zeroed: each step then applies the sum "
                      "of all gradients so far. Reset the gradients every step.", "never_zeroed")
    summed_w, summed_b = expected["summed"]
    if fit_close(got_w, summed_w) and fit_close(got_b, summed_b):
        entries = fit["y"].numel()
        raise Mistake(f"your weights match the reference run with a summed loss: your loss sums the squared "
                      f"errors; nn.MSELoss() takes their mean over all {entries} entries of y, so each of your "
                      f"gradients was {entries} times too big. Use nn.MSELoss(), with its default reduction, the "
                      "mean.", "wrong_value")
    broadcast = expected.get("broadcast")
    if broadcast is not None and fit_close(got_w, broadcast[0]) and fit_close(got_b, broadcast[1]):
        raise Mistake(f"for {shapes}, your weights match a run whose loss compared a prediction of shape ({n}, 1) "
                      f"with a target of shape ({n},) (a squeeze(), view(-1) or y[:, 0] on one side): the "
                      f"loss then broadcasts them to ({n}, {n}), every prediction against every target, and "
                      "PyTorch warns about it. Keep both as model(x) and y come, of shape (n, 1).", "broadcast_loss")
    error, index = largest_difference(got_w.double(), expected["weight"].double())
    raise Mistake(f"for {shapes}, the weight differs from the check's reference run by up to {error:.3g} (at "
                  f"index {index}). The reference starts from zeros and takes `steps` full-batch SGD steps on "
                  "nn.MSELoss() with the given lr.", "wrong_value")


HINTS = [
    "The order of construction matters: the optimizer must hold the very parameters the model uses, "
    "and they must hold your starting values before the first step.",
    "Each of the `steps` iterations is the training step of the core's exercise, on all of x and y.",
    "If the weights do not move or grow too fast, look at where the gradients are reset: once per "
    "step, never between backward() and step().",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
