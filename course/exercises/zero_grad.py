"""Lesson 4 exercises: reading and zeroing `.grad`.

Expected values come from PyTorch on the check's own copies: torch.autograd.grad on a deep copy of
the model, or a functional run of plain tensors. Where a training step leaves parameters behind,
the check turns the step back into the gradient it used, so the usual diagnosis (stale .grad,
doubled, zeroed) can name the mistake.
"""
import copy

import torch
from torch import nn

from ..checks import random_inputs as rand
from ..checks.compare import close, largest_difference
from ..checks.diagnose import diagnose_gradient, diagnose_tensor
from ..exercise import Exercise
from ..checks.mistakes import Mistake, require
from ..checks.technique import NO_AUTOGRAD_GRAD, forbidden, inputs_kept, oracle_leaf, snapshot


SCALAR_FUNCTIONS = [
    ("sum of x * sin(x)", lambda t: (t * torch.sin(t)).sum()),      # x used twice
    ("mean of exp(-x**2)", lambda t: torch.exp(-t**2).mean()),
    ("sum of x**3 + 2x", lambda t: (t**3 + 2 * t).sum()),
]




def _random_mlp(rng, n_in: int, n_out: int) -> nn.Module:
    """A small float64 network whose parameters come from the seeded generator, not torch's RNG."""
    hidden = rand.integer(rng, 2, 5)
    model = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, n_out)).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(rand.tensor(rng, p.shape, torch.float64, -1.0, 1.0))
    return model


def _random_loss(rng):
    return [("MSELoss", nn.MSELoss()), ("HuberLoss", nn.HuberLoss())][rand.integer(rng, 0, 1)]


def _plant_junk(rng, model: nn.Module) -> list[torch.Tensor]:
    """Fill every .grad with leftovers, as a previous step would have; returns copies of them."""
    junk = []
    for p in model.parameters():
        p.grad = rand.tensor(rng, p.shape, torch.float64)
        junk.append(p.grad.clone())
    return junk


def _number(got, what: str) -> float:
    if isinstance(got, torch.Tensor) and got.numel() == 1:
        return float(got.detach())
    if isinstance(got, (int, float)) and not isinstance(got, bool):
        return float(got)
    raise Mistake(f"{what} should be one number (a float or a one-element tensor), got "
                  f"{'None: a missing `return`?' if got is None else type(got).__name__}.")


def _same_number(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 + 1e-7 * abs(b)


# Exercise 1 ---------------------------------------------------------------------------------------

def _grad_history(answer, rng):
    x = rand.tensor(rng, rand.shape(rng), (torch.float32, torch.float64)[rand.integer(rng, 0, 1)])
    k = rand.integer(rng, 2, 5)
    for description, f in SCALAR_FUNCTIONS:
        walks = []

        def counted(t, f=f):
            out = f(t)
            if out.requires_grad:  # fires once per backward() that passes through f's output
                out.register_hook(lambda g: walks.append(1))
            return out

        before = snapshot(x)
        with forbidden(torch.autograd, "grad", NO_AUTOGRAD_GRAD):
            got = answer(counted, x, k)
        inputs_kept(before, [x], ["x"])
        x0 = oracle_leaf(x)
        (g,) = torch.autograd.grad(f(x0), x0)
        steps = torch.arange(1, k + 1, dtype=x.dtype).reshape((k,) + (1,) * x.dim())
        expected = steps * g
        what = f"the .grad history for f = {description}"
        require(diagnose_tensor(expected, got, what))
        if not close(got, expected):
            if close(got, expected[-1].expand_as(expected)):
                raise Mistake(f"{what}: every row equals the last one. backward() updates x.grad in "
                              "place, so each saved row was the same tensor: save x.grad.clone().")
            if close(got, g.expand_as(expected)):
                raise Mistake(f"{what}: every row is the gradient of one call, so .grad was reset "
                              "between the calls. Here, let it accumulate.")
        require(diagnose_gradient(expected, got, what))
        if len(walks) != k:
            raise Mistake(f"backward() went through f {len(walks)} time(s), expected {k}: call "
                          "backward() once per row and read what .grad has accumulated.")


# Exercise 2 ---------------------------------------------------------------------------------------

def _reset_case(answer, rng, set_to_none: bool):
    count = rand.integer(rng, 2, 4)
    params = [rand.tensor(rng, rand.shape(rng), torch.float64, requires_grad=True) for _ in range(count)]
    untouched = rand.integer(rng, 0, count - 1)  # one parameter never got a gradient
    grads = []
    for i, p in enumerate(params):
        p.grad = None if i == untouched else rand.tensor(rng, p.shape, torch.float64)
        grads.append(p.grad)
    before = snapshot(*params)
    answer(params, set_to_none)
    inputs_kept(before, params, [f"params[{i}]" for i in range(count)])
    for i, (p, old) in enumerate(zip(params, grads)):
        name = f"params[{i}].grad"
        if old is None:
            if p.grad is not None:
                raise Mistake(f"{name} was None and now holds a tensor: a parameter without a "
                              "gradient has nothing to reset, so leave it None (zero_grad() does).")
        elif set_to_none:
            if p.grad is not None:
                raise Mistake(f"with set_to_none=True, {name} should be None, but it is still a tensor"
                              f"{' of zeros' if not p.grad.any() else ''}: assign p.grad = None.")
        else:
            if p.grad is None:
                raise Mistake(f"with set_to_none=False, {name} should be a tensor of zeros, but it "
                              "is None: zero it in place with p.grad.zero_().")
            if p.grad is not old:
                raise Mistake(f"with set_to_none=False, {name} is a new tensor object: zero the "
                              "existing one in place with p.grad.zero_(), so the same tensor (and its "
                              "memory) is kept.")
            if p.grad.any():
                raise Mistake(f"with set_to_none=False, {name} is not all zeros.")


def _reset_grads(answer, rng):
    first = bool(rand.integer(rng, 0, 1))
    for set_to_none in (first, not first):
        _reset_case(answer, rng, set_to_none)


# Exercise 3 ---------------------------------------------------------------------------------------

def _train_step(answer, rng):
    n_in, n_out, batch = rand.integer(rng, 1, 4), rand.integer(rng, 1, 3), rand.integer(rng, 2, 6)
    model = _random_mlp(rng, n_in, n_out)
    reference = copy.deepcopy(model)
    x = rand.tensor(rng, (batch, n_in), torch.float64)
    y = rand.tensor(rng, (batch, n_out), torch.float64)
    loss_name, loss_fn = _random_loss(rng)
    lr = float(rand.tensor(rng, (), torch.float64, 0.05, 0.5))
    junk = _plant_junk(rng, model)
    start = [p.detach().clone() for p in model.parameters()]
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    inputs = snapshot(x, y)
    got_loss = answer(model, optimizer, x, y, loss_fn)
    inputs_kept(inputs, [x, y], ["x", "y"])

    loss = loss_fn(reference(x), y)
    grads = torch.autograd.grad(loss, list(reference.parameters()))
    moved = [(s - p.detach()) / lr for s, p in zip(start, model.parameters())]
    if all(not m.any() for m in moved):
        raise Mistake("the parameters did not move: step() found no gradient to apply. Either step() "
                      "was never called, or zero_grad() ran between backward() and step().")
    for (name, _), g, m, j in zip(model.named_parameters(), grads, moved, junk):
        what = f"the step taken for `{name}` (divided by lr)"
        if close(m, j) and not close(m, g):
            raise Mistake(f"{what} equals what .grad held before your code ran: step() came before "
                          "backward(). The order is zero_grad(), forward, backward(), step().")
        require(diagnose_gradient(g, m, what, stale=j))
    value = _number(got_loss, f"the returned loss ({loss_name})")
    if not _same_number(value, float(loss.detach())):
        raise Mistake(f"the returned loss is {value:.6g}, expected {float(loss.detach()):.6g}: return the "
                      "loss of this batch computed before the step, as loss.item().")


# Exercise 4 ---------------------------------------------------------------------------------------

def _accumulated_grads(answer, rng):
    n_in, n_out = rand.integer(rng, 1, 4), rand.integer(rng, 1, 3)
    k, rows = rand.integer(rng, 2, 5), rand.integer(rng, 2, 4)
    model = _random_mlp(rng, n_in, n_out)
    reference = copy.deepcopy(model)
    batches = [(rand.tensor(rng, (rows, n_in), torch.float64), rand.tensor(rng, (rows, n_out), torch.float64))
               for _ in range(k)]
    loss_name, loss_fn = _random_loss(rng)
    junk = _plant_junk(rng, model)
    start = [p.detach().clone() for p in model.parameters()]
    seen = []
    hook = model.register_forward_hook(lambda module, args, out: seen.append(args[0].shape[0]))
    inputs = snapshot(*[t for pair in batches for t in pair])
    try:
        answer(model, batches, loss_fn)
    finally:
        hook.remove()
    inputs_kept(inputs, [t for pair in batches for t in pair], ["a batch tensor"] * (2 * k))
    if any(not torch.equal(s, p.detach()) for s, p in zip(start, model.parameters())):
        raise Mistake("the parameters changed: this function only accumulates .grad. Leave "
                      "optimizer.step() to the caller.")

    x_all, y_all = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
    params = list(reference.parameters())
    full = torch.autograd.grad(loss_fn(reference(x_all), y_all), params)
    last = torch.autograd.grad(loss_fn(reference(batches[-1][0]), batches[-1][1]), params)
    for (name, p), g, g_last, j in zip(model.named_parameters(), full, last, junk):
        what = f"the accumulated .grad of `{name}`"
        got = p.grad
        if isinstance(got, torch.Tensor) and got.shape == g.shape and not close(got, g):
            if close(got, k * g):
                raise Mistake(f"{what} is {k} times the full-batch gradient ({k} micro-batches): each "
                              f"micro-batch {loss_name} is already a mean over its rows, so the sum of "
                              f"{k} of them is {k} times too big. Divide each micro-batch loss by {k}.")
            if close(got, g_last) or close(got, g_last / k):
                raise Mistake(f"{what} is the gradient of the last micro-batch only: .grad was reset "
                              "inside the loop. Zero it once, before the first micro-batch.")
        require(diagnose_gradient(g, got, what, tensor=p, stale=j))
    if seen != [rows] * k:
        raise Mistake(f"the model ran on batches of {seen} rows; expected one forward pass per "
                      f"micro-batch ({k} of {rows} rows each). Accumulate .grad over the micro-batches.")


# Exercise 5 ---------------------------------------------------------------------------------------

def _grad_norm(answer, rng):
    model = _random_mlp(rng, rand.integer(rng, 1, 4), rand.integer(rng, 1, 3))
    x = rand.tensor(rng, (rand.integer(rng, 2, 5), model[0].in_features), torch.float64)
    (model(x) ** 2).sum().backward()
    params = list(model.named_parameters())
    with torch.no_grad():  # a total norm of random size, between 2 and 20
        scale = float(rand.tensor(rng, (), torch.float64, 2.0, 20.0)) / float(
            torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1) for _, p in params])))
        for _, p in params:
            p.grad *= scale
    frozen = rand.integer(rng, 0, len(params) - 1)  # e.g. a frozen or unused parameter
    params[frozen][1].grad = None
    grads = [None if p.grad is None else p.grad.clone() for _, p in params]

    with forbidden(nn.utils, "clip_grad_norm_", "compute the norm yourself from each .grad; "
                   "clip_grad_norm_ is what you compare with afterwards (and it rescales .grad)."):
        got = answer(model)
    for (name, p), old in zip(params, grads):
        if (p.grad is None) != (old is None) or (old is not None and not torch.equal(p.grad, old)):
            raise Mistake(f"your code changed `{name}.grad`: reading the norm must leave the gradients "
                          "as they were, so use out-of-place operations (p.grad ** 2, not p.grad.pow_(2)).")
    present = [g for g in grads if g is not None]
    expected = float(torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in present])))
    value = _number(got, "the gradient norm")
    if _same_number(value, expected):
        return
    if _same_number(value, sum(float(torch.linalg.vector_norm(g)) for g in present)):
        raise Mistake("your value is the sum of the per-parameter norms. The global norm treats all "
                      "gradients as one long vector: the square root of the sum of every norm squared.")
    if _same_number(value, expected**2):
        raise Mistake("your value is the squared norm: take the square root.")
    raise Mistake(f"your gradient norm is {value:.6g}, PyTorch's is {expected:.6g}: include every "
                  "parameter whose .grad is not None, as one long vector.")


# Exercise 6 ---------------------------------------------------------------------------------------

def _functional_run(x, y, steps: int, lr: float, accumulate: bool = False) -> list[tuple]:
    """Full-batch SGD on MSE from zeros, with plain tensors: (weight, bias) after each step."""
    w = torch.zeros(y.shape[1], x.shape[1], dtype=x.dtype)
    b = torch.zeros(y.shape[1], dtype=x.dtype)
    total = [torch.zeros_like(w), torch.zeros_like(b)]
    history = [(w, b)]
    for _ in range(steps):
        w, b = w.requires_grad_(True), b.requires_grad_(True)
        gw, gb = torch.autograd.grad(nn.functional.mse_loss(nn.functional.linear(x, w, b), y), (w, b))
        if accumulate:  # what .grad holds when nobody resets it
            total = [total[0] + gw, total[1] + gb]
            gw, gb = total
        w, b = w.detach().add(gw, alpha=-lr), b.detach().add(gb, alpha=-lr)
        history.append((w, b))
    return history


def _fit_close(got: torch.Tensor, expected: torch.Tensor) -> bool:
    """Looser than float32 rounding: the same sums in a different order drift over many steps."""
    return bool(torch.isfinite(got).all()) and torch.allclose(got.double(), expected.double(),
                                                              rtol=1e-4, atol=1e-5)


def _fit_linear(answer, rng):
    n, d_in, d_out = rand.integer(rng, 8, 24), rand.integer(rng, 1, 4), rand.integer(rng, 1, 3)
    x = rand.tensor(rng, (n, d_in))
    true_w, true_b = rand.tensor(rng, (d_out, d_in)), rand.tensor(rng, (d_out,))
    y = x @ true_w.T + true_b + 0.1 * rand.tensor(rng, (n, d_out), low=-1.0, high=1.0)
    # few, small steps: the weights are still far from the least-squares fit, so where the run
    # started and how many steps it took both show in the result
    steps = rand.integer(rng, 5, 20)
    lr = float(rand.tensor(rng, (), torch.float64, 0.02, 0.1))

    inputs = snapshot(x, y)
    model = answer(x, y, steps, lr)
    inputs_kept(inputs, [x, y], ["x", "y"])
    if model is None or not isinstance(getattr(model, "weight", None), torch.Tensor) or \
            not isinstance(getattr(model, "bias", None), torch.Tensor):
        raise Mistake("return the trained nn.Linear (an object with .weight and .bias), "
                      f"got {'None: a missing `return`?' if model is None else type(model).__name__}.")
    runs = _functional_run(x, y, steps + 1, lr)
    w, b = runs[steps]
    require(diagnose_tensor(w, model.weight.detach(), "the weight"))
    require(diagnose_tensor(b, model.bias.detach(), "the bias"))
    got_w, got_b = model.weight.detach(), model.bias.detach()
    if _fit_close(got_w, w) and _fit_close(got_b, b):
        return
    if not got_w.any() and not got_b.any():
        raise Mistake("the weights never left their zero start: no step applied a gradient. Was "
                      "zero_grad() called between backward() and step()?")
    stale_w, stale_b = _functional_run(x, y, steps, lr, accumulate=True)[steps]
    blew_up = not torch.isfinite(got_w).all() and not torch.isfinite(stale_w).all()
    if blew_up or (_fit_close(got_w, stale_w) and _fit_close(got_b, stale_b)):
        raise Mistake("your weights match a run where .grad is never zeroed: each step then applies "
                      "the sum of all gradients so far. Call optimizer.zero_grad() every step.")
    for other in (steps - 1, steps + 1):
        if _fit_close(got_w, runs[other][0]) and _fit_close(got_b, runs[other][1]):
            raise Mistake(f"your model took {other} steps, expected {steps}: call step() exactly "
                          "`steps` times.")
    error, index = largest_difference(got_w.double(), w.double())
    raise Mistake(f"the weight differs from the check's reference run by up to {error:.3g} (at index "
                  f"{index}). The reference starts from zeros and takes `steps` full-batch SGD steps "
                  "on nn.MSELoss() with the given lr.")


grad_history = Exercise("grad_history", _grad_history, [
    "Make a leaf copy of x; then, k times: compute f(copy), call backward(), save what .grad holds.",
    "backward() adds into the same x.grad tensor, so save x.grad.clone() each time; "
    "return torch.stack(saved).",
])
reset_grads = Exercise("reset_grads", _reset_grads, [
    "Two ways to reset: replace .grad with None, or fill the existing tensor with zeros in place. "
    "Skip parameters whose .grad is already None.",
    "for p in params: if p.grad is not None: either p.grad = None, or p.grad.zero_().",
])
train_step = Exercise("train_step", _train_step, [
    "Four calls in a fixed order; the one that resets .grad must not sit between the two that "
    "compute and use the gradient.",
    "optimizer.zero_grad(); loss = loss_fn(model(x), y); loss.backward(); optimizer.step(); "
    "return loss.item().",
])
accumulated_grads = Exercise("accumulated_grads", _accumulated_grads, [
    "Reset .grad once, then let backward() add up one micro-batch at a time. A mean over all rows "
    "is the mean of the micro-batch means.",
    "model.zero_grad(); k = len(batches); for x, y in batches: (loss_fn(model(x), y) / k).backward().",
])
grad_norm = Exercise("grad_norm", _grad_norm, [
    "The global norm is the length of all gradients laid end to end: the square root of the sum "
    "of every squared entry. Skip parameters whose .grad is None.",
    "norms = [torch.linalg.vector_norm(p.grad) for p in model.parameters() if p.grad is not None]; "
    "return torch.linalg.vector_norm(torch.stack(norms)).",
])
fit_linear = Exercise("fit_linear", _fit_linear, [
    "Build nn.Linear(x.shape[1], y.shape[1]), set its weight and bias to zeros under no_grad(), and "
    "make a torch.optim.SGD with lr. Then repeat `steps` times the four calls of train_step.",
    "loss_fn = nn.MSELoss(); for _ in range(steps): optimizer.zero_grad(); "
    "loss_fn(model(x), y).backward(); optimizer.step(). Finally return model.",
])
