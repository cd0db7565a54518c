"""Lesson 4 exercises: reading, zeroing and hooking `.grad`.

Each exercise draws its inputs from a seed (often a model whose `.grad` holds leftovers, as an
earlier step would leave them), runs the answer in the student's kernel (``call``) and sends back
what it saw: values of `.grad` and of the parameters, and what only the kernel can see (whether a
`.grad` is still the same tensor object, whether the parameters are the ones the optimizer holds,
how many rows each forward pass had). The expected values come from PyTorch on the grader's side
(``autograder/grading/judging/references/zero_grad.py``); nothing here holds an answer.
"""
import copy
import math
from contextlib import contextmanager

import torch
from torch import nn
from torch.nn.modules.module import register_module_forward_hook
from torch.optim.optimizer import register_optimizer_step_pre_hook

from ..checks import random_inputs as rand
from ..checks.compare import close, largest_difference
from ..checks.diagnose import diagnose_gradient, diagnose_tensor
from ..checks.mistakes import Mistake, require
from ..checks.observation import flags_of
from ..checks.technique import NO_AUTOGRAD_GRAD, counting, forbidden, inputs_kept, snapshot
from ..exercise import Exercise
from ..lesson_footer import close_lesson

SCALAR_FUNCTIONS = [
    ("sum of x * sin(x)", lambda t: (t * torch.sin(t)).sum()),      # x used twice
    ("mean of exp(-x**2)", lambda t: torch.exp(-t**2).mean()),
    ("sum of x**3 + 2x", lambda t: (t**3 + 2 * t).sum()),
]

LOSSES = [("MSELoss", nn.MSELoss), ("HuberLoss", nn.HuberLoss)]


# --- inputs shared by several exercises ------------------------------------------------------------

def random_mlp(rng, n_in: int, n_out: int) -> nn.Module:
    """A small float64 network whose parameters come from the seeded generator, not torch's RNG."""
    hidden = rand.integer(rng, 2, 5)
    model = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, n_out)).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(rand.tensor(rng, p.shape, torch.float64, -1.0, 1.0))
    return model


def _random_loss(rng) -> tuple[str, nn.Module]:
    name, make = LOSSES[rand.integer(rng, 0, len(LOSSES) - 1)]
    return name, make()


def _plant_junk(rng, model: nn.Module) -> list[torch.Tensor]:
    """Fill every .grad with leftovers, as a previous step would have; returns copies of them."""
    junk = []
    for p in model.parameters():
        p.grad = rand.tensor(rng, p.shape, torch.float64)
        junk.append(p.grad.clone())
    return junk


# --- what the kernel side observes ----------------------------------------------------------------

def _grads(params) -> list:
    return [None if p.grad is None else p.grad.detach().clone() for p in params]


def _replaced(before: list, after: list) -> bool:
    """True when the model now holds other Parameter objects than it did (identity, not values)."""
    return len(before) != len(after) or any(a is not b for a, b in zip(before, after))


def _no_gradient(grad) -> bool:
    return grad is None or not bool(grad.detach().any())


@contextmanager
def watching_steps():
    """Record every optimizer.step() made inside: which tensors it updates, their .grad and values then."""
    steps = []

    def seen(optimizer, args, kwargs):
        params = [p for group in optimizer.param_groups for p in group["params"]]
        steps.append({"optimizer": type(optimizer).__name__, "object": optimizer, "params": params,
                      "lr": [float(group.get("lr", float("nan"))) for group in optimizer.param_groups],
                      "grads": _grads(params), "values": [p.detach().clone() for p in params]})

    handle = register_optimizer_step_pre_hook(seen)
    try:
        yield steps
    finally:
        handle.remove()


def step_summary(steps: list[dict], model_params: list) -> dict:
    """Plain data about the recorded steps, judged on the grader's side."""
    def owns(step):
        return bool(model_params) and all(any(p is q for q in step["params"]) for p in model_params)

    def of_model(step, key):
        return [step[key][i] for i, q in enumerate(step["params"]) if any(q is p for p in model_params)]

    return {"count": len(steps), "optimizers": sorted({s["optimizer"] for s in steps}),
            "lrs": sorted({lr for s in steps for lr in s["lr"]}),
            "on_model": all(owns(s) for s in steps),
            "no_gradient": [all(_no_gradient(g) for g in of_model(s, "grads")) for s in steps],
            "first_values": of_model(steps[0], "values") if steps and owns(steps[0]) else None}


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


# --- judging helpers -------------------------------------------------------------------------------

def _listed(value, count: int, what: str) -> list:
    """A list of exactly ``count`` entries, or a Mistake: zip() over a short list would pass by accident."""
    if not isinstance(value, list) or len(value) != count:
        raise Mistake(f"the check expected {count} results for {what}, got "
                      f"{len(value) if isinstance(value, list) else type(value).__name__}.", "unreadable")
    return value


def _number(got, what: str) -> float:
    if isinstance(got, torch.Tensor) and got.numel() == 1:
        return float(got.detach())
    if isinstance(got, (int, float)) and not isinstance(got, bool):
        return float(got)
    raise Mistake(f"{what} should be one number (a float or a one-element tensor), got "
                  f"{'None: a missing `return`?' if got is None else type(got).__name__}.", "not_a_number")


def _times(n) -> str:
    return "once" if n == 1 else f"{n} times"


def _same_number(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 + 1e-7 * abs(b)


def _params_replaced(where: str) -> Mistake:
    return Mistake(f"the model's parameters are new Parameter objects after {where}: the optimizer still "
                   "holds the old ones, so step() updates tensors the model no longer uses. Change a "
                   "parameter's values in place (under torch.no_grad()), never assign a new nn.Parameter "
                   "once the optimizer is built.", "params_replaced")


def _none_grad_judged(error: Exception, where: str) -> None:
    """An answer that used a None .grad as a tensor: say that it was None, and why a .grad is None."""
    if isinstance(error, (TypeError, AttributeError)) and "NoneType" in str(error):
        raise Mistake(f"your code used a .grad that is None as a tensor ({type(error).__name__}: "
                      f"{str(error)[:120]}): {where} is None, because no backward() has reached that "
                      "parameter yet (it is frozen, or the loss did not use it). Skip parameters whose .grad is "
                      "None.", "grad_none_not_skipped")


# Exercise: grad_history ---------------------------------------------------------------------------

def _grad_history_inputs(rng):
    return {"x": rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng)), "k": rand.integer(rng, 2, 5)}


def _grad_history_call(answer, inputs):
    x, k = inputs["x"], inputs["k"]
    histories, walks = [], []
    for _, f in SCALAR_FUNCTIONS:
        passes = []

        def counted(t, f=f, passes=passes):
            out = f(t)
            if out.requires_grad:  # fires once per backward() that passes through f's output
                out.register_hook(lambda g: passes.append(1))
            return out

        before = snapshot(x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD):
            histories.append(answer(counted, x, k))
        inputs_kept(before, [x], ["x"])
        walks.append(len(passes))
    return {"histories": histories, "walks": walks}


def _grad_history_judge(seen, expected, inputs):
    k, n = inputs["k"], len(SCALAR_FUNCTIONS)
    rows = zip(SCALAR_FUNCTIONS, _listed(seen["histories"], n, "the functions"), expected["histories"],
               _listed(seen["walks"], n, "the functions"))
    for (description, _), got, want, walks in rows:
        what = f"the .grad history for f = {description}"
        require(diagnose_tensor(want, got, what))
        if not close(got, want):
            if close(got, want[-1].expand_as(want)):
                raise Mistake(f"{what}: every row equals the last one. backward() updates x.grad in place, "
                              "and each saved row shares its memory with .grad: x.grad itself, or its detach() or "
                              ".data, none of which is a copy. Save a copy with memory of its own.",
                              "grad_aliased")
            if close(got, want[0].expand_as(want)):
                raise Mistake(f"{what}: every row is the gradient of one call, so .grad was reset between "
                              "the calls. Here, let it accumulate.", "grad_reset")
        require(diagnose_gradient(want, got, what))
        if walks != k:
            raise Mistake(f"backward() went through f {_times(walks)}, expected {k} times: call backward() once "
                          "per row and read what .grad has accumulated.", "backward_count")


# Exercise: reset_grads ----------------------------------------------------------------------------

def _reset_grads_inputs(rng):
    first, cases = bool(rand.integer(rng, 0, 1)), []
    for set_to_none in (first, not first):
        count = rand.integer(rng, 2, 4)
        params = [rand.tensor(rng, rand.shape(rng), torch.float64, requires_grad=True) for _ in range(count)]
        untouched = rand.integer(rng, 0, count - 1)  # one parameter never got a gradient
        for i, p in enumerate(params):
            p.grad = None if i == untouched else rand.tensor(rng, p.shape, torch.float64)
        # a gradient that overflowed: a reset must clear inf too (p.grad * 0 would leave NaN)
        overflowed = params[(untouched + 1) % count].grad
        overflowed.view(-1)[rand.integer(rng, 0, overflowed.numel() - 1)] = float("inf")
        cases.append({"params": params, "set_to_none": set_to_none})
    return {"cases": cases}


def _reset_grads_call(answer, inputs):
    seen = []
    for case in inputs["cases"]:
        params = case["params"]
        before, old = snapshot(*params), [p.grad for p in params]
        try:
            answer(params, case["set_to_none"])
        except (TypeError, AttributeError) as error:
            _none_grad_judged(error, f"params[{[p.grad is None for p in params].index(True)}].grad"
                              if any(p.grad is None for p in params) else "a parameter's .grad")
            raise
        for i, (was, p) in enumerate(zip(before, params)):
            if not torch.equal(p.detach(), was):
                raise Mistake(f"the values of params[{i}] changed: a reset changes .grad only (p.data.zero_() or "
                              f"p.zero_() zeroes the parameter itself, not its gradient). Reset params[{i}].grad.",
                              "params_changed")
        inputs_kept(before, params, [f"params[{i}]" for i in range(len(params))])
        seen.append({"grads": _grads(params),
                     "same_tensor": [o is not None and p.grad is o for p, o in zip(params, old)]})
    return {"cases": seen}


def _reset_grads_judge(seen, expected, inputs):
    cases = _listed(seen["cases"], len(inputs["cases"]), "the two calls")
    for case, got, want in zip(inputs["cases"], cases, expected["cases"]):
        set_to_none, count = case["set_to_none"], len(case["params"])
        grads, same = _listed(got["grads"], count, "params"), _listed(got["same_tensor"], count, "params")
        for i, (p, g, kept, w) in enumerate(zip(case["params"], grads, same, want["grads"])):
            name = f"params[{i}].grad"
            if p.grad is None:
                if g is not None:
                    raise Mistake(f"{name} was None and now holds a tensor: a parameter without a gradient "
                                  "has nothing to reset, so leave it None (zero_grad() does).", "grad_created")
            elif set_to_none:
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
                                  "holds NaN: multiplying by 0 does not reset a gradient that is not finite "
                                  "(inf * 0 and NaN * 0 are NaN). Write zeros over whatever the tensor holds, "
                                  "in place.", "inf_times_zero")
                if not torch.equal(g, w):
                    raise Mistake(f"with set_to_none=False, {name} is not all zeros.", "grad_not_zero")


# Exercise: train_step -----------------------------------------------------------------------------

def _train_step_inputs(rng):
    n_in, n_out, batch = rand.integer(rng, 1, 4), rand.integer(rng, 1, 3), rand.integer(rng, 2, 6)
    model = random_mlp(rng, n_in, n_out)
    x = rand.tensor(rng, (batch, n_in), torch.float64)
    y = rand.tensor(rng, (batch, n_out), torch.float64)
    loss_name, loss_fn = _random_loss(rng)
    lr = float(rand.tensor(rng, (), torch.float64, 0.05, 0.5))
    junk = _plant_junk(rng, model)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    return {"model": model, "optimizer": optimizer, "x": x, "y": y, "loss_fn": loss_fn,
            "loss_name": loss_name, "lr": lr, "junk": junk}


def _train_step_call(answer, inputs):
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
    return {"loss": loss, "params": [p.detach().clone() for p in now], "replaced": _replaced(params, now),
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


def _train_step_judge(seen, expected, inputs):
    steps, lr = seen["steps"], inputs["lr"]
    if seen["replaced"] is not False:
        raise _params_replaced("your step")
    start = [p.detach() for p in inputs["model"].parameters()]
    after = _listed(seen["params"], len(start), "the parameters")
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
    names = [_as_attribute(name) for name, _ in inputs["model"].named_parameters()]
    for name, g, m, j in zip(names, expected["grads"], moved, inputs["junk"]):
        what = f"the gradient step() applied to `{name}`"
        if close(m, j) and not close(m, g):
            raise Mistake(f"{what} equals what .grad held before your code ran: step() came before "
                          "backward(). The order is zero_grad(), forward, backward(), step().", "step_first")
        require(diagnose_gradient(g, m, what, stale=j))
    _judge_loss(seen["loss"], expected["loss"])


def _as_attribute(name: str) -> str:
    """'0.weight' -> 'model[0].weight': a parameter named the way the student would reach it."""
    index, dot, rest = name.partition(".")
    return f"model[{index}].{rest}" if dot and index.isdigit() else f"model.{name}"


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
    if not _same_number(got, want):
        raise Mistake(f"the returned loss is {got:.6g}, expected {want:.6g}: return the loss of this batch, "
                      "computed before the step.", "wrong_loss")


# Exercise: accumulated_grads ----------------------------------------------------------------------

def _accumulated_grads_inputs(rng):
    n_in, n_out = rand.integer(rng, 1, 4), rand.integer(rng, 1, 3)
    k, rows = rand.integer(rng, 2, 5), rand.integer(rng, 2, 4)
    model = random_mlp(rng, n_in, n_out)
    batches = [(rand.tensor(rng, (rows, n_in), torch.float64), rand.tensor(rng, (rows, n_out), torch.float64))
               for _ in range(k)]
    loss_name, loss_fn = _random_loss(rng)
    junk = _plant_junk(rng, model)
    return {"model": model, "batches": batches, "loss_fn": loss_fn, "loss_name": loss_name, "junk": junk,
            "k": k, "rows": rows}


def _accumulated_grads_call(answer, inputs):
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
    return {"grads": _grads(now), "replaced": _replaced(params, now),
            "moved": any(not torch.equal(s, p.detach()) for s, p in zip(start, now)),
            "forward_rows": rows, "backward_passes": len(backward_passes)}


def _constant_ratio(got: torch.Tensor, want: torch.Tensor) -> float | None:
    """c when got is c * want for one number c (not 1, 0 or k, said elsewhere), else None."""
    if not want.any() or torch.is_complex(got):
        return None
    i = int(want.abs().argmax())
    c = float(got.reshape(-1)[i] / want.reshape(-1)[i])
    return c if c not in (0.0, 1.0) and math.isfinite(c) and close(got, c * want) else None


def _accumulated_grads_judge(seen, expected, inputs):
    k, rows, loss_name = inputs["k"], inputs["rows"], inputs["loss_name"]
    if seen["replaced"] is not False:
        raise _params_replaced("your code")
    if seen["moved"] is not False:
        raise Mistake("the parameters changed: this function only accumulates .grad. Leave "
                      "optimizer.step() to the caller.", "stepped")
    named = list(inputs["model"].named_parameters())
    grads = _listed(seen["grads"], len(named), "the parameters")
    passes = seen["backward_passes"]
    if passes and all(_no_gradient(g) for g in grads):
        raise Mistake(f"every .grad is {'None' if all(g is None for g in grads) else 'zero'} when your function "
                      f"returns, although backward() ran {_times(passes)}: .grad was reset after the last "
                      "backward() (a zero_grad() at the end?). Leave the accumulated gradient in .grad for "
                      "the caller's step().", "grad_reset_at_end")
    for (name, p), got, g, g_last, j in zip(named, grads, expected["full"], expected["last"], inputs["junk"]):
        what = f"the accumulated .grad of `{_as_attribute(name)}`"
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
        raise Mistake(f"backward() ran {_times(passes)} through the model, expected {k} times: one per micro-batch. "
                      "A single backward() of the summed losses needs every micro-batch's graph in memory at "
                      "once, which is what accumulation avoids.", "backward_count")


# Exercise: grad_norm ------------------------------------------------------------------------------

def _grad_norm_inputs(rng):
    model = random_mlp(rng, rand.integer(rng, 1, 4), rand.integer(rng, 1, 3))
    x = rand.tensor(rng, (rand.integer(rng, 2, 5), model[0].in_features), torch.float64)
    (model(x) ** 2).sum().backward()
    params = list(model.parameters())
    with torch.no_grad():  # a total norm of random size, between 2 and 20
        scale = float(rand.tensor(rng, (), torch.float64, 2.0, 20.0)) / float(
            torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1) for p in params])))
        for p in params:
            p.grad *= scale
    params[rand.integer(rng, 0, len(params) - 1)].grad = None  # e.g. a frozen or unused parameter
    # and a model no backward() has reached yet: no .grad at all, a norm of 0
    return {"model": model, "no_grads": random_mlp(rng, rand.integer(rng, 1, 4), rand.integer(rng, 1, 3))}


@contextmanager
def _clip_grad_norm_refused():
    """The exercise asks for the norm computed by hand; clip_grad_norm_ rescales .grad unless max_norm is inf."""
    original = nn.utils.clip_grad_norm_

    def refuse(*args, **kwargs):
        max_norm = kwargs.get("max_norm", args[1] if len(args) > 1 else None)
        try:
            rescales = math.isfinite(float(max_norm))
        except (TypeError, ValueError):
            rescales = True
        why = (" With a finite max_norm it would also rescale every .grad in place." if rescales else
               " With max_norm=inf it changes no .grad, but it still computes the norm for you.")
        raise Mistake("the exercise asks you to compute the norm yourself, from the .grad tensors, not with "
                      "clip_grad_norm_." + why, "forbidden_shortcut")

    nn.utils.clip_grad_norm_ = refuse
    try:
        yield
    finally:
        nn.utils.clip_grad_norm_ = original


def _grad_norm_call(answer, inputs):
    named = list(inputs["model"].named_parameters())
    before = _grads(p for _, p in named)
    with _clip_grad_norm_refused():
        try:
            got = answer(inputs["model"])
        except (TypeError, AttributeError) as error:
            _none_grad_judged(error, "one parameter's .grad")
            raise
        try:
            no_grads, no_grads_error = answer(inputs["no_grads"]), None
        except Exception as error:  # judged after the model with gradients, in the judge
            no_grads, no_grads_error = None, f"{type(error).__name__}: {error}"
    changed = [_as_attribute(name) for (name, p), old in zip(named, before)
               if (p.grad is None) != (old is None) or (old is not None and not torch.equal(p.grad, old))]
    return {"norm": got, "changed": changed, "no_grads": no_grads, "no_grads_error": no_grads_error}


def _grad_norm_judge(seen, expected, inputs):
    if seen["changed"] != []:
        name = seen["changed"][0] if isinstance(seen["changed"], list) and seen["changed"] else "a parameter"
        raise Mistake(f"your code changed `{name}.grad`: reading the norm must leave the gradients as they "
                      "were, so use out-of-place operations (p.grad ** 2, not p.grad.pow_(2)).", "grad_changed")
    value, want = _number(seen["norm"], "the gradient norm"), expected["norm"]
    if _same_number(value, want):
        _no_grads_judged(seen)
        return
    if _same_number(value, expected["sum_of_norms"]):
        raise Mistake("your value is the sum of the per-parameter norms. The global norm treats all gradients "
                      "as one long vector: the square root of the sum of every norm squared.", "sum_of_norms")
    if _same_number(value, want**2):
        raise Mistake("your value is the squared norm: take the square root.", "squared_norm")
    if _same_number(value, expected["of_parameters"]):
        raise Mistake("your value is the norm of the parameters themselves, not of their gradients: the "
                      "gradient of p is p.grad.", "norm_of_parameters")
    raise Mistake(f"your gradient norm is {value:.6g}, PyTorch's is {want:.6g}. The global norm is the square "
                  "root of the sum of every squared entry of every .grad that is not None: one length of all "
                  "the gradients laid end to end (not a mean of squares, a sum of absolute values, or the "
                  "largest entry).", "wrong_value")


def _no_grads_judged(seen) -> None:
    """A model without any .grad has a gradient norm of 0, as the exercise says."""
    if seen["no_grads_error"] is not None:
        raise Mistake("for a model whose parameters have no .grad at all (no backward() yet), your code raised "
                      f"{str(seen['no_grads_error'])[:160]}: the list of gradients is empty there, and "
                      "torch.cat or torch.stack refuse an empty list. The norm of no gradients is 0: start from "
                      "0, or return 0.0 when the list is empty.", "no_grads_raised")
    value = _number(seen["no_grads"], "the gradient norm of a model without any .grad")
    if value != 0.0:
        raise Mistake(f"for a model whose parameters have no .grad at all, your norm is {value:.6g}: with no "
                      "gradient, the norm is 0.", "no_grads_not_zero")


# Exercise: fit_linear -----------------------------------------------------------------------------

def _fit_linear_inputs(rng):
    n, d_in, d_out = rand.integer(rng, 8, 24), rand.integer(rng, 1, 4), rand.integer(rng, 1, 3)
    x = rand.tensor(rng, (n, d_in))
    true_w, true_b = rand.tensor(rng, (d_out, d_in)), rand.tensor(rng, (d_out,))
    y = x @ true_w.T + true_b + 0.1 * rand.tensor(rng, (n, d_out), low=-1.0, high=1.0)
    # few, small steps: the weights are still far from the least-squares fit, so where the run
    # started and how many steps it took both show in the result
    return {"x": x, "y": y, "steps": rand.integer(rng, 5, 20),
            "lr": float(rand.tensor(rng, (), torch.float64, 0.02, 0.1))}


def _fit_linear_call(answer, inputs):
    x, y = inputs["x"], inputs["y"]
    kept = snapshot(x, y)
    with watching_steps() as steps, watching_linear_rows() as rows:
        model = answer(x, y, inputs["steps"], inputs["lr"])
    inputs_kept(kept, [x, y], ["x", "y"])
    params = list(model.parameters()) if isinstance(model, nn.Module) else []
    return {"is_linear": isinstance(model, nn.Linear), "returned": type(model).__name__,
            "weight": getattr(model, "weight", None) if isinstance(model, nn.Module) else None,
            "bias": getattr(model, "bias", None) if isinstance(model, nn.Module) else None,
            "steps": step_summary(steps, params), "rows": rows}


def fit_close(got: torch.Tensor, expected: torch.Tensor) -> bool:
    """Looser than float32 rounding: the same sums in a different order drift over many steps."""
    return isinstance(got, torch.Tensor) and got.shape == expected.shape and bool(torch.isfinite(got).all()) \
        and torch.allclose(got.double(), expected.double(), rtol=1e-4, atol=1e-5)


def _fit_linear_judge(seen, expected, inputs):
    n, wanted_steps, lr = inputs["x"].shape[0], inputs["steps"], inputs["lr"]
    if seen["is_linear"] is not True:
        raise Mistake(f"return the trained nn.Linear, got {seen['returned']}"
                      f"{': a missing `return`?' if seen['returned'] == 'NoneType' else ''}.", "not_a_model")
    got_w, got_b, steps = seen["weight"], seen["bias"], seen["steps"]
    require(diagnose_tensor(expected["weight"], got_w, "the weight"))
    require(diagnose_tensor(expected["bias"], got_b, "the bias"))
    if steps["count"] == 0:
        raise Mistake("no optimizer.step() ran: train with torch.optim.SGD(model.parameters(), lr=lr) and "
                      "call its step() once per training step.", "no_step")
    if steps["on_model"] is not True:
        raise _params_replaced("the optimizer was built")
    if steps["optimizers"] != ["SGD"]:
        raise Mistake(f"your training used {', '.join(map(str, steps['optimizers']))}: the exercise asks "
                      "for torch.optim.SGD, so that every correct answer gives the same numbers.", "wrong_optimizer")
    if not all(isinstance(v, float) and _same_number(v, lr) for v in steps["lrs"]):
        raise Mistake(f"your optimizer's learning rate is {steps['lrs']}, not the lr given ({lr:.6g}).", "wrong_lr")
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
        entries = inputs["y"].numel()
        raise Mistake(f"your weights match the reference run with a summed loss: your loss sums the squared "
                      f"errors; nn.MSELoss() takes their mean over all {entries} entries of y, so each of your "
                      f"gradients was {entries} times too big. Use nn.MSELoss(), with its default reduction, the "
                      "mean.", "wrong_value")
    error, index = largest_difference(got_w.double(), expected["weight"].double())
    raise Mistake(f"the weight differs from the check's reference run by up to {error:.3g} (at index {index}). "
                  "The reference starts from zeros and takes `steps` full-batch SGD steps on nn.MSELoss() "
                  "with the given lr.", "wrong_value")


# Exercise: clip_with_hook -------------------------------------------------------------------------

def _clip_with_hook_inputs(rng):
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
    return {"model": model, "batches": batches, "max_value": min(max_value, 0.9 * largest_weight),
            "scales": [1.0, 1.0, 1000.0]}


_MODULE_HOOKS = {"forward": ("_forward_hooks", "_forward_pre_hooks"),
                 "backward": ("_backward_hooks", "_backward_pre_hooks")}


def _module_hooks(model: nn.Module) -> dict[str, int]:
    """How many hooks of each kind the model's modules hold: hooks on modules, not on tensors."""
    return {kind: sum(len(getattr(m, attr, None) or ()) for m in model.modules() for attr in attrs)
            for kind, attrs in _MODULE_HOOKS.items()}


def _clip_with_hook_call(answer, inputs):
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
        seen.append(_grads(params))
        changed = [was or any(not torch.equal(grad, values) for grad, values in log)
                   for was, log in zip(changed, logged)]
        for log in logged:
            log.clear()
    return {"first": seen[0], "second": seen[1], "after_remove": seen[2], "moved": moved,
            "handles": type(handles).__name__, "removable": removable, "hooked": hooked,
            "module_hooks": module_hooks,
            "handle_count": len(handles) if isinstance(handles, (list, tuple)) else None,
            "argument_changed": changed, "handles_elsewhere": handles_elsewhere,
            "replaced": _replaced(params, list(model.parameters()))}


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


def _clip_first_pass(seen, expected, names, wanted) -> None:
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
    if wrong and all(close(got, at_zero) for _, got, _, _, _, at_zero, _ in wanted):
        raise Mistake("after one backward(), .grad has its negative entries set to 0: the range is "
                      "[-max_value, max_value], not [0, max_value]. A negative gradient is clipped only below "
                      "-max_value.", "clipped_at_zero")
    if wrong and all(close(got, raw) for _, got, _, raw, *_ in wrong):
        raise Mistake(f"after one backward(), `{wrong[0][0]}.grad` holds the unclipped gradient, though a hook "
                      "is registered on it: the clamp never reached .grad. A hook registered with register_hook "
                      "changes the gradient by returning the new one, which autograd uses in its place.",
                      "not_clipped")
    for name, got, want, *_ in wrong:
        require(diagnose_gradient(want, got, f"`{name}.grad` after one backward()"))
    for name, changed in zip(names, _listed(seen["argument_changed"], len(names), "parameters")):
        if changed is not False:
            raise Mistake(f"your hook changed the gradient it was given in place: the caller's own hook on "
                          f"`{name}`, registered before yours, holds that same tensor, and its values changed "
                          "after your hook ran. Autograd may hand one gradient tensor to several hooks and "
                          "nodes, so a hook must leave its argument as it is and return the clipped gradient "
                          "as a new tensor, which autograd then uses in its place.", "hook_in_place")


def _clip_with_hook_judge(seen, expected, inputs):
    if seen["replaced"] is not False or seen["moved"] is not False:
        raise Mistake("your code changed the model's parameters: it should only register hooks that change "
                      "gradients.", "params_changed")
    names = [_as_attribute(name) for name, _ in inputs["model"].named_parameters()]
    count, m = len(names), inputs["max_value"]
    first, second = _listed(seen["first"], count, "parameters"), _listed(seen["second"], count, "parameters")
    _clip_first_pass(seen, expected, names, list(zip(
        names, first, expected["first"], expected["unclipped"], expected["upper_only"], expected["at_zero"],
        _listed(seen["hooked"], count, "parameters"))))
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
    for name, got, want in zip(names, _listed(seen["after_remove"], count, "parameters"), expected["after_remove"]):
        what = f"`{name}.grad` after the caller removed your hooks"
        require(diagnose_tensor(want, got, what))
        if not close(got, want):
            raise Mistake(f"{what} is still clipped: the handles you returned are not the ones of the hooks "
                          f"that clip (max_value={m:.3g}). Return every handle register_hook gave you.",
                          "hooks_left")


# The exercises ------------------------------------------------------------------------------------
# In the lesson's order: the core first (reset_grads, train_step), then the going-further sections'.

reset_grads = Exercise(_reset_grads_inputs, _reset_grads_call, _reset_grads_judge, [
    "A parameter whose .grad is already None has nothing to reset: skip it.",
    "There are two ways to reset: drop the tensor (assign None to the attribute), or fill the "
    "existing tensor with zeros without making a new one.",
    "The in-place method names end in an underscore; zeros_like() or a new torch.zeros() would "
    "give a new tensor object, which the check refuses for set_to_none=False.",
])
train_step = Exercise(_train_step_inputs, _train_step_call, _train_step_judge, [
    "One training step is section 3's four calls, each once, with the optimizer you were given.",
    "backward() adds the gradient in and step() reads it. The check leaves old values in .grad: "
    "where must the reset be, so that backward() starts from nothing?",
    "The loss is a tensor with a graph; the exercise wants its value as a plain Python number, "
    "taken from that tensor (the graph must not travel back to the caller).",
])
grad_history = Exercise(_grad_history_inputs, _grad_history_call, _grad_history_judge, [
    "Work on a leaf copy of x that requires grad, so the caller's x stays as it was.",
    "Loop k times: a new forward pass through f, then backward(). Do not reset anything in between.",
    "If every row comes out the same, ask what your list holds: k different tensors, or k names for "
    "the one .grad tensor that each backward() keeps updating in place?",
])
accumulated_grads = Exercise(_accumulated_grads_inputs, _accumulated_grads_call, _accumulated_grads_judge, [
    "Reset the gradients once, before the loop, then let backward() add up one micro-batch at a time.",
    "One forward and one backward() per micro-batch, and no step(): the caller steps with what you "
    "leave in .grad, so nothing may reset it after the loop.",
    "The full-batch loss is a mean over all rows, which is the mean of the k micro-batch means: what "
    "must each micro-batch's loss be multiplied by, so that the k gradients add up to that mean?",
])
grad_norm = Exercise(_grad_norm_inputs, _grad_norm_call, _grad_norm_judge, [
    "The global norm is the length of all gradients laid end to end: the square root of the sum of "
    "every squared entry.",
    "Skip parameters whose .grad is None (a model may have none with a .grad: the norm is then 0), and "
    "only read .grad: no in-place operation on it.",
    "Per-parameter norms combine like the entries of one vector: the square root of the sum of "
    "their squares, not their sum.",
])
fit_linear = Exercise(_fit_linear_inputs, _fit_linear_call, _fit_linear_judge, [
    "The order of construction matters: the optimizer must hold the very parameters the model uses, "
    "and they must hold your starting values before the first step.",
    "Each of the `steps` iterations is the training step of the core's exercise, on all of x and y.",
    "If the weights do not move or grow too fast, look at where the gradients are reset: once per "
    "step, never between backward() and step().",
])
clip_with_hook = Exercise(_clip_with_hook_inputs, _clip_with_hook_call, _clip_with_hook_judge, [
    "A tensor hook is a function of the incoming gradient; what it returns replaces that gradient "
    "before it is added into .grad.",
    "Every parameter needs its own hook, weights and biases alike, and the caller needs what each "
    "registration returns.",
    "Which tensor method limits every entry to a range, on both sides? Make sure the hook returns "
    "its result rather than changing the gradient it was given.",
])

# The lesson's last cell calls check.progress(globals()); CORE is its first pass, the lesson's essentials.
EXERCISES, CORE, progress, ERROR_SECTIONS = close_lesson(
    globals(), core=("reset_grads", "train_step"), written={"why_accumulate": 2})
