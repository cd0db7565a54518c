"""Lesson 4 checks: the common mistakes are named, in the self-check and the grader alike.

That the source notebook's solutions pass, that stubs are "not attempted" and that hints have
levels is checked for every lesson at once, in test_wrong_submissions and test_exercise_modules.
"""
import pytest
import torch
from torch import nn

from autograder import grade
from autograder.grade import GradingFailure
from course.exercises import zero_grad as check
from course.outcome import CheckFailed


def fit_linear_never_zeroed(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    return model


def train_step_zero_between(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
    return loss.item()


def train_step_no_zero(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def accumulated_not_divided(model, batches, loss_fn):
    model.zero_grad()
    for x, y in batches:
        loss_fn(model(x), y).backward()


def accumulated_all_at_once(model, batches, loss_fn):
    model.zero_grad()
    loss_fn(model(torch.cat([b[0] for b in batches])), torch.cat([b[1] for b in batches])).backward()


def grad_history_not_cloned(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    saved = []
    for _ in range(k):
        f(x).backward()
        saved.append(x.grad)
    return torch.stack(saved)


def grad_history_multiplied(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    f(x).backward()
    return torch.stack([x.grad * (i + 1) for i in range(k)])


def reset_grads_new_zeros(params, set_to_none):
    for p in params:
        if p.grad is not None:
            p.grad = None if set_to_none else torch.zeros_like(p)


def grad_norm_summed(model):
    return sum(torch.linalg.vector_norm(p.grad) for p in model.parameters() if p.grad is not None)


def grad_norm_clipped(model):
    return nn.utils.clip_grad_norm_(model.parameters(), float("inf"))


def grad_norm_squared_in_place(model):
    return sum(p.grad.pow_(2).sum() for p in model.parameters() if p.grad is not None) ** 0.5


@pytest.mark.parametrize("name, answer, message", [
    ("fit_linear", fit_linear_never_zeroed, "never zeroed"),
    ("train_step", train_step_zero_between, "between backward() and step()"),
    ("train_step", train_step_no_zero, "plus what .grad held before"),
    ("accumulated_grads", accumulated_not_divided, "times the full-batch gradient"),
    ("accumulated_grads", accumulated_all_at_once, "one forward pass per micro-batch"),
    ("grad_history", grad_history_not_cloned, "x.grad.clone()"),
    ("grad_history", grad_history_multiplied, "backward() went through f 1 time"),
    ("reset_grads", reset_grads_new_zeros, "new tensor object"),
    ("grad_norm", grad_norm_summed, "sum of the per-parameter norms"),
    ("grad_norm", grad_norm_clipped, "clip_grad_norm_ is what you compare with"),
    ("grad_norm", grad_norm_squared_in_place, "changed"),
])
def test_mistakes_are_named(name, answer, message):
    with pytest.raises(CheckFailed, match=None) as failure:
        getattr(check, name)(answer)
    assert message in str(failure.value)
    with pytest.raises(GradingFailure) as failure:
        grade(f"zero_grad.{name}", answer)
    assert message in str(failure.value)


def test_stale_gradient_is_named_in_the_step():
    """The planted .grad makes a missing zero_grad() visible even on the grader's first step."""
    for seed in range(20):
        with pytest.raises(CheckFailed, match="plus what .grad held before"):
            check.train_step(train_step_no_zero, seed=seed)


def test_grad_history_plot_draws_bars_resets_and_none():
    from course.grad_history_plot import plot_grad_history

    figure = plot_grad_history([("backward()", 3.0), ("backward()", 6.0), ("x.grad.zero_()", 0.0),
                                ("x.grad = None", None)], one_call=3.0)
    (axes,) = figure.axes
    assert len(axes.patches) == 2                      # bars only for the backward() steps
    assert [t.get_text() for t in axes.get_xticklabels()][-1] == "4. x.grad = None"
    with pytest.raises(ValueError):
        plot_grad_history([])
