"""Expected values for lesson 4, computed with PyTorch on the grader's own copies of the inputs.

Gradients come from torch.autograd.grad on a deep copy of the trial's model; resets from PyTorch's
own zero_grad(); the training run of fit_linear from a functional loop on plain tensors.
"""
import copy

import torch
from torch import nn

from course.checks.technique import oracle_leaf
from course.exercises.zero_grad import SCALAR_FUNCTIONS


def _grads_of(model: nn.Module, loss_fn, x, y) -> list[torch.Tensor]:
    return list(torch.autograd.grad(loss_fn(model(x), y), list(model.parameters())))


def grad_history(inputs):
    x, k = inputs["x"], inputs["k"]
    histories = []
    for _, f in SCALAR_FUNCTIONS:
        x0 = oracle_leaf(x)
        (g,) = torch.autograd.grad(f(x0), x0)
        steps = torch.arange(1, k + 1, dtype=x.dtype).reshape((k,) + (1,) * x.dim())
        histories.append(steps * g)  # backward() adds the same gradient k times
    return {"histories": histories}


def reset_grads(inputs):
    cases = []
    for case in inputs["cases"]:
        params = [p.detach().clone().requires_grad_(True) for p in case["params"]]
        for mine, given in zip(params, case["params"]):
            mine.grad = None if given.grad is None else given.grad.clone()
        torch.optim.SGD(params, lr=0.0).zero_grad(set_to_none=case["set_to_none"])
        cases.append({"grads": [p.grad for p in params]})
    return {"cases": cases}


def train_step(inputs):
    model = copy.deepcopy(inputs["model"])
    loss = inputs["loss_fn"](model(inputs["x"]), inputs["y"])
    grads = torch.autograd.grad(loss, list(model.parameters()))
    return {"loss": float(loss.detach()), "grads": list(grads)}


def accumulated_grads(inputs):
    model, loss_fn, batches = copy.deepcopy(inputs["model"]), inputs["loss_fn"], inputs["batches"]
    x_all, y_all = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
    return {"full": _grads_of(model, loss_fn, x_all, y_all), "last": _grads_of(model, loss_fn, *batches[-1])}


def grad_norm(inputs):
    with_grad = [p for p in inputs["model"].parameters() if p.grad is not None]
    grads = [p.grad for p in with_grad]
    return {"norm": float(nn.utils.get_total_norm(grads)),
            "sum_of_norms": sum(float(torch.linalg.vector_norm(g)) for g in grads),
            # the mistakes the judge names: the norm of p instead of p.grad
            "of_parameters": float(nn.utils.get_total_norm([p.detach() for p in with_grad]))}


def _functional_run(x, y, steps: int, lr: float, accumulate: bool = False, reduction: str = "mean") -> tuple:
    """Full-batch SGD on MSE from zeros, with plain tensors: (weight, bias) after ``steps`` steps."""
    w = torch.zeros(y.shape[1], x.shape[1], dtype=x.dtype)
    b = torch.zeros(y.shape[1], dtype=x.dtype)
    total = [torch.zeros_like(w), torch.zeros_like(b)]
    for _ in range(steps):
        w, b = w.requires_grad_(True), b.requires_grad_(True)
        gw, gb = torch.autograd.grad(nn.functional.mse_loss(nn.functional.linear(x, w, b), y, reduction=reduction), (w, b))
        if accumulate:  # what .grad holds when nobody resets it
            total = [total[0] + gw, total[1] + gb]
            gw, gb = total
        w, b = w.detach().add(gw, alpha=-lr), b.detach().add(gb, alpha=-lr)
    return w, b


def fit_linear(inputs):
    x, y, steps, lr = inputs["x"], inputs["y"], inputs["steps"], inputs["lr"]
    weight, bias = _functional_run(x, y, steps, lr)
    return {"weight": weight, "bias": bias, "never_zeroed": list(_functional_run(x, y, steps, lr, accumulate=True)),
            # the squared errors summed, not averaged: the mistake the judge names
            "summed": list(_functional_run(x, y, steps, lr, reduction="sum"))}


def clip_with_hook(inputs):
    model, m = copy.deepcopy(inputs["model"]), inputs["max_value"]
    g1, g2, g3 = ([scale * g for g in _grads_of(model, nn.functional.mse_loss, x, y)]
                  for (x, y), scale in zip(inputs["batches"], inputs["scales"]))
    first = [g.clamp(-m, m) for g in g1]
    return {"first": first,
            "second": [a + g.clamp(-m, m) for a, g in zip(first, g2)],  # each pass clipped, then added
            "after_remove": g3,
            "unclipped": g1,
            "upper_only": [g.clamp(max=m) for g in g1],
            "at_zero": [g.clamp(0, m) for g in g1],
            "clip_total": [(a + g).clamp(-m, m) for a, g in zip(first, g2)]}
