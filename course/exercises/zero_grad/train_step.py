"""`train_step(model, optimizer, x, y, loss_fn)`: one training step, the reset before backward(); the
batch's loss returned as a float.
"""
import torch
from torch.optim.optimizer import register_optimizer_step_pre_hook

from ...checks import random_inputs as rand
from ...checks.compare import close, same_number
from ...checks.diagnose import diagnose_gradient
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of
from ...checks.optimizer_steps import step_summary, watching_steps
from ...checks.parameters import as_attribute, no_gradient, params_replaced, replaced
from ...checks.random_models import plant_junk, random_loss, random_mlp, targets
from ...checks.read_back import listed
from ...checks.technique import counting, inputs_kept, snapshot
from ...exercise import Exercise


def inputs(rng):
    n_in, n_out, batch = rand.integer(rng, 1, 4), rand.integer(rng, 1, 3), rand.integer(rng, 2, 6)
    model = random_mlp(rng, n_in, n_out)
    x = rand.tensor(rng, (batch, n_in), torch.float64)
    loss_name, loss_fn = random_loss(rng)  # one whose arguments cannot be swapped unnoticed
    y = targets(rng, loss_name, (batch, n_out))
    lr = float(rand.tensor(rng, (), torch.float64, 0.05, 0.5))
    junk = plant_junk(rng, model)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    return {"model": model, "optimizer": optimizer, "x": x, "y": y, "loss_fn": loss_fn,
            "loss_name": loss_name, "lr": lr, "junk": junk}


def call(answer, inputs):
    model, x, y = inputs["model"], inputs["x"], inputs["y"]
    params, kept = list(model.parameters()), snapshot(x, y)
    backward_before_step = []  # how many backward() calls had run when each step() began
    with watching_steps() as steps, counting(torch.autograd, "backward") as ran:
        handle = register_optimizer_step_pre_hook(lambda *_: backward_before_step.append(len(ran)))
        try:
            loss = answer(model, inputs["optimizer"], x, y, inputs["loss_fn"])
        except RuntimeError as error:
            if "inplace operation" in str(error) and 0 in backward_before_step:
                raise Mistake("backward() failed because optimizer.step() ran before it: step() changed the "
                              "weights in place after the forward pass had saved them for backward, so autograd "
                              "refuses to compute gradients from values that have changed since. The order is "
                              "zero_grad(), forward, backward(), step().", "step_before_backward") from None
            raise
        finally:
            handle.remove()
    inputs_kept(kept, [x, y], ["x", "y"])
    now = list(model.parameters())
    return {"loss": loss, "params": [p.detach().clone() for p in now], "replaced": replaced(params, now),
            "reset_at_end": all(no_gradient(p.grad) for p in now),  # a reset after step(), for the next step
            "steps": step_summary(steps, now), "backward_before_step": backward_before_step,
            "other_optimizer": any(step["object"] is not inputs["optimizer"] for step in steps)}


def _no_gradient_at_step(backward_before_step) -> str:
    """Why step() found .grad empty: it came before backward(), or a reset came between them."""
    said = "the parameters did not move: when step() ran, every .grad was None or zero"
    order = "The order is zero_grad(), forward, backward(), step()."
    if backward_before_step == [0]:
        return f"{said}, because step() ran before backward() had filled it. {order}"
    if isinstance(backward_before_step, list) and backward_before_step and all(
            isinstance(n, int) and n > 0 for n in backward_before_step):
        return f"{said}, so zero_grad() ran between backward() and step(). {order}"
    return (f"{said}. step() reads what backward() left in .grad, so it must come after backward(), with "
            f"no reset in between. {order}")


def judge(seen, expected, inputs):
    steps, lr = seen["steps"], inputs["lr"]
    if seen["replaced"] is not False:
        raise params_replaced("your step")
    start = [p.detach() for p in inputs["model"].parameters()]
    after = listed(seen["params"], len(start), "the parameters")
    moved = [(s - p) / lr for s, p in zip(start, after)]
    if all(not m.any() for m in moved):
        if steps["count"] == 0:
            raise Mistake("the parameters did not move: optimizer.step() was never called.", "no_step")
        if all(steps["no_gradient"]):
            raise Mistake(_no_gradient_at_step(seen.get("backward_before_step")), "no_gradient_at_step")
    if steps["count"] == 0:
        raise Mistake("the parameters moved, but optimizer.step() was never called: your code updated them by hand. "
                      "Step with the optimizer you were given, which holds the caller's lr and momentum.",
                      "updated_by_hand")
    if seen["other_optimizer"] is not False:
        raise Mistake("step() ran on an optimizer your code built, not on the one it was given: use the "
                      "optimizer passed in, which holds the caller's settings (lr, momentum) and state.",
                      "other_optimizer")
    if steps["count"] > 1:
        raise Mistake(f"step() ran {steps['count']} times: one training step calls it once.", "step_count")
    names = [as_attribute(name) for name, _ in inputs["model"].named_parameters()]
    if not all(close(m, g) for m, g in zip(moved, expected["grads"])) and \
            all(close(m, g) for m, g in zip(moved, expected["swapped"])):
        raise Mistake(f"step() applied the gradient of loss_fn(y, model(x)): the arguments are swapped. A loss "
                      f"takes the prediction first and the target second, loss_fn(model(x), y); for "
                      f"{inputs['loss_name']}, unlike a squared error, the order changes the loss.", "swapped_loss")
    if not all(close(m, g) for m, g in zip(moved, expected["grads"])) and \
            all(close(m, g) for m, g in zip(moved, expected["mse"])):
        raise Mistake(f"step() applied the gradient of nn.MSELoss(), not of the loss_fn given ({inputs['loss_name']}): "
                      "compute the loss with the loss_fn argument, loss_fn(model(x), y).", "wrong_loss_fn")
    if all(close(m, g + j) for m, g, j in zip(moved, expected["grads"], inputs["junk"])) and \
            not all(close(m, g) for m, g in zip(moved, expected["grads"])) and seen.get("reset_at_end") is True:
        raise Mistake("the gradient step() applied equals this batch's gradient plus what .grad held before your "
                      "code ran: your reset comes after step(). That clears .grad for the next step, but this "
                      "step's backward() added into the old values (the check leaves them, as an earlier step "
                      "would). Reset at the top of the step, before backward().", "stale_grad")
    if all(close(m, g + j) for m, g, j in zip(moved, expected["grads"], inputs["junk"])) and \
            not all(close(m, g) for m, g in zip(moved, expected["grads"])):
        raise Mistake("the gradient step() applied equals this batch's gradient plus what .grad held before your "
                      "code ran: nothing reset .grad, so backward() added into the old values. Call "
                      "optimizer.zero_grad() at the top of the step, before backward().", "stale_grad")
    for name, g, m, j in zip(names, expected["grads"], moved, inputs["junk"]):
        what = f"the gradient step() applied to `{name}`"
        if close(m, j) and not close(m, g):
            raise Mistake(f"{what} equals what .grad held before your code ran: step() came before "
                          "backward(). The order is zero_grad(), forward, backward(), step().", "step_first")
        require(diagnose_gradient(g, m, what, stale=j))
    _judge_loss(seen["loss"], expected["loss"])


def _judge_loss(got, want: float) -> None:
    """The batch loss as a Python float: a tensor would keep the step's graph alive in the caller."""
    if isinstance(got, torch.Tensor):
        flags = flags_of(got)
        if flags.requires_grad:
            raise Mistake("the returned loss is a tensor that still carries its graph "
                          f"(grad_fn={flags.grad_fn}): return a Python float (.item()), so the caller does "
                          "not keep the whole step's graph alive.", "loss_not_float")
        raise Mistake("the returned loss is a tensor, not a Python float: take its value with .item().",
                      "loss_not_float")
    if got is None:
        raise Mistake("the returned loss is None: a missing `return`?", "none_returned")
    if not isinstance(got, float):
        raise Mistake(f"the returned loss should be a Python float, got {type(got).__name__}.", "loss_not_float")
    if not same_number(got, want):
        if any(got == round(want, digits) for digits in range(6)):
            raise Mistake(f"the returned loss is {got:.6g}, expected {want:.6g}: it is rounded. Return the loss's "
                          "value as it is, loss.item().", "wrong_loss")
        raise Mistake(f"the returned loss is {got:.6g}, expected {want:.6g}: return the loss of this batch, "
                      "computed before the step.", "wrong_loss")


HINTS = [
    "One training step is section 3's four calls, each once, with the optimizer you were given.",
    "backward() adds the gradient in and step() reads it. The check leaves old values in .grad: "
    "where must the reset be, so that backward() starts from nothing?",
    "The loss is a tensor with a graph; the exercise wants its value as a plain Python number, "
    "taken from that tensor (the graph must not travel back to the caller).",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
