"""`accumulated_grads(model, batches, loss_fn)`: the full batch's gradient, accumulated over micro-batches."""
import math

import torch

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient
from ...checks.mistakes import Mistake, require
from ...checks.parameters import as_attribute, grads_of, no_gradient, params_replaced, replaced
from ...checks.random_models import plant_junk, random_loss, random_mlp, targets
from ...checks.read_back import listed
from ...checks.technique import counting, inputs_kept, snapshot, times
from ...exercise import Exercise


def inputs(rng):
    n_in, n_out = rand.integer(rng, 1, 4), rand.integer(rng, 1, 3)
    k, rows = rand.integer(rng, 2, 5), rand.integer(rng, 2, 4)
    rows += rows == k  # never as many rows as micro-batches: dividing by either must show
    model = random_mlp(rng, n_in, n_out)
    loss_name, loss_fn = random_loss(rng)  # one whose arguments cannot be swapped unnoticed
    batches = [(rand.tensor(rng, (rows, n_in), torch.float64), targets(rng, loss_name, (rows, n_out)))
               for _ in range(k)]
    junk = plant_junk(rng, model)
    return {"model": model, "batches": batches, "loss_fn": loss_fn, "loss_name": loss_name, "junk": junk,
            "k": k, "rows": rows}


def call(answer, inputs):
    model, batches = inputs["model"], inputs["batches"]
    params, tensors = list(model.parameters()), [t for pair in batches for t in pair]
    start, kept = [p.detach().clone() for p in params], snapshot(*tensors)
    rows = []

    def seen(module, args, out):
        if args and isinstance(args[0], torch.Tensor) and args[0].dim() >= 1:
            rows.append(int(args[0].shape[0]))

    handle = model.register_forward_hook(seen)
    try:
        with counting(torch.autograd, "backward") as backward_passes:
            answer(model, batches, inputs["loss_fn"])
    finally:
        handle.remove()
    inputs_kept(kept, tensors, ["a batch tensor"] * len(tensors))
    now = list(model.parameters())
    return {"grads": grads_of(now), "replaced": replaced(params, now),
            "moved": any(not torch.equal(s, p.detach()) for s, p in zip(start, now)),
            "forward_rows": rows, "backward_passes": len(backward_passes)}


def _constant_ratio(got: torch.Tensor, want: torch.Tensor) -> float | None:
    """c when got is c * want for one number c (not 1, 0 or k, said elsewhere), else None."""
    if not want.any() or torch.is_complex(got):
        return None
    i = int(want.abs().argmax())
    c = float(got.reshape(-1)[i] / want.reshape(-1)[i])
    return c if c not in (0.0, 1.0) and math.isfinite(c) and close(got, c * want) else None


def judge(seen, expected, inputs):
    k, rows, loss_name = inputs["k"], inputs["rows"], inputs["loss_name"]
    if seen["replaced"] is not False:
        raise params_replaced("your code")
    if seen["moved"] is not False:
        raise Mistake("the parameters changed: this function only accumulates .grad. Leave "
                      "optimizer.step() to the caller.", "stepped")
    named = list(inputs["model"].named_parameters())
    grads = listed(seen["grads"], len(named), "the parameters")
    passes = seen["backward_passes"]
    if passes and all(no_gradient(g) for g in grads):
        raise Mistake(f"every .grad is {'None' if all(g is None for g in grads) else 'zero'} when your function "
                      f"returns, although backward() ran {times(passes)}: .grad was reset after the last "
                      "backward() (a zero_grad() at the end?). Leave the accumulated gradient in .grad for "
                      "the caller's step().", "grad_reset_at_end")
    if all(isinstance(got, torch.Tensor) and got.shape == g.shape and not close(got, g) and close(got, s)
           for got, g, s in zip(grads, expected["full"], expected["swapped"])):
        raise Mistake(f"every .grad is the gradient of loss_fn(y, model(x)): the arguments are swapped. A loss takes "
                      f"the prediction first and the target second, loss_fn(model(x), y); for {loss_name}, unlike "
                      "a squared error, the order changes the loss.", "swapped_loss")
    for (name, p), got, g, g_last, j in zip(named, grads, expected["full"], expected["last"], inputs["junk"]):
        what = f"the accumulated .grad of `{as_attribute(name)}`"
        if isinstance(got, torch.Tensor) and got.shape == g.shape and not close(got, g):
            if close(got, k * g):
                raise Mistake(f"{what} is {k} times the full-batch gradient ({k} micro-batches): each "
                              f"micro-batch {loss_name} is already a mean over its rows, so the sum of {k} of "
                              f"them is {k} times too big. Scale each micro-batch's loss.", "not_divided")
            ratio = _constant_ratio(got, g)
            if ratio is not None:
                raise Mistake(f"{what} is {ratio:.3g} times the full-batch gradient: the scales of the {k} micro-batch "
                              f"losses (or of their summed .grad) must add up to 1, since each micro-batch {loss_name} "
                              "is already a mean over its rows.", "wrong_scale")
            if close(got, g_last) or close(got, g_last / k):
                raise Mistake(f"{what} is the gradient of the last micro-batch only: .grad was reset inside "
                              "the loop. Reset it once, before the first micro-batch.", "reset_in_loop")
        require(diagnose_gradient(g, got, what, tensor=p, stale=j))
    if seen["forward_rows"] != [rows] * k:
        raise Mistake(f"the model ran on batches of {seen['forward_rows']} rows; expected one forward pass per "
                      f"micro-batch ({k} of {rows} rows each). Accumulate .grad over the micro-batches.",
                      "not_micro_batched")
    if passes and passes != k:  # 0: the gradient is right, so backward() ran by a path not counted
        raise Mistake(f"backward() ran {times(passes)} through the model, expected {k} times: one per micro-batch. "
                      "A single backward() of the summed losses needs every micro-batch's graph in memory at "
                      "once, which is what accumulation avoids.", "backward_count")


HINTS = [
    "Reset the gradients once, before the loop, then let backward() add up one micro-batch at a time.",
    "One forward and one backward() per micro-batch, and no step(): the caller steps with what you "
    "leave in .grad, so nothing may reset it after the loop.",
    "The full-batch loss is a mean over all rows, which is the mean of the k micro-batch means: what "
    "must each micro-batch's loss be multiplied by, so that the k gradients add up to that mean?",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
