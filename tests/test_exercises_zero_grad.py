"""Lesson 4 checks: mistakes beyond the corpus are named, in the self-check and the grader alike.

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


def train_step_no_zero(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def accumulated_all_at_once(model, batches, loss_fn):
    model.zero_grad()
    loss_fn(model(torch.cat([b[0] for b in batches])), torch.cat([b[1] for b in batches])).backward()


def grad_norm_clipped(model):
    return nn.utils.clip_grad_norm_(model.parameters(), float("inf"))


@pytest.mark.parametrize("name, answer, message", [
    ("train_step", train_step_no_zero, "plus what .grad held before"),
    ("accumulated_grads", accumulated_all_at_once, "one forward pass per micro-batch"),
    ("grad_norm", grad_norm_clipped, "clip_grad_norm_ is what you compare with"),
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
    from course.visuals.grad_history_plot import plot_grad_history

    figure = plot_grad_history([("backward()", 3.0), ("backward()", 6.0), ("x.grad.zero_()", 0.0),
                                ("x.grad = None", None)], one_call=3.0)
    (axes,) = figure.axes
    assert len(axes.patches) == 2                      # bars only for the backward() steps
    assert [t.get_text() for t in axes.get_xticklabels()][-1] == "4. x.grad = None"
    with pytest.raises(ValueError):
        plot_grad_history([])
