"""Lesson 4 checks: other correct answers pass, mistakes the corpus cannot hold are named, and what the
kernel side sends is plain data, judged the same by the grader and the self-check.

That the source notebook's solutions pass, that every corpus entry fails with its message, that stubs
are "not attempted" and that hints have levels is checked for every lesson at once, in
test_wrong_submissions and test_exercise_modules.
"""
import pytest
import torch
from torch import nn

from course.checks.observation import dumps
from course.exercises import zero_grad as check
from course.outcome import CheckFailed
from lesson_solutions import solutions
from trial import exercise, graded

LESSON = "04_zero_grad"
SOLUTIONS = solutions(LESSON)


# --- other correct answers pass ------------------------------------------------------------------

def train_step_reset_at_both_ends(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad(set_to_none=False)
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    model.zero_grad()                 # after step() is a fine place too
    return float(loss.detach())


def accumulated_with_grad_none(model, batches, loss_fn):
    for p in model.parameters():
        p.grad = None
    for x, y in batches:
        loss_fn(model(x), y).div(len(batches)).backward()


def grad_norm_as_float(model):
    squares = sum(float((p.grad ** 2).sum()) for p in model.parameters() if p.grad is not None)
    return squares ** 0.5


def fit_linear_with_init(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return model


def clip_with_torch_clamp(model, max_value):
    handles = []
    for p in model.parameters():
        handles.append(p.register_hook(lambda g: torch.clamp(g, min=-max_value, max=max_value)))
    return tuple(handles)


def clip_a_copy_in_place(model, max_value):
    """Clamping in place is fine on a tensor of the hook's own: the one it was handed stays as it was."""
    return [p.register_hook(lambda g: g.clone().clamp_(-max_value, max_value)) for p in model.parameters()]


@pytest.mark.parametrize("name, answer", [
    ("train_step", train_step_reset_at_both_ends),
    ("accumulated_grads", accumulated_with_grad_none),
    ("grad_norm", grad_norm_as_float),
    ("fit_linear", fit_linear_with_init),
    ("clip_with_hook", clip_with_torch_clamp),
    ("clip_with_hook", clip_a_copy_in_place),
])
def test_other_correct_answers_pass(name, answer, capsys):
    exercise(LESSON, name)(answer)
    assert "Correct" in capsys.readouterr().out
    result = graded(LESSON, name, answer, seeds=range(20, 30))
    assert result.passed, result


# --- mistakes named beyond the corpus -------------------------------------------------------------

def train_step_no_zero(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def test_stale_gradient_is_named_on_every_seed():
    """The planted .grad makes a missing zero_grad() visible on any seed the grader draws."""
    for seed in range(20):
        result = graded(LESSON, "train_step", train_step_no_zero, seeds=[seed])
        assert "plus what .grad held before" in result.message
        assert result.kind == "stale_grad"


def test_a_detached_loss_tensor_is_not_a_float():
    def returns_detached(model, optimizer, x, y, loss_fn):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.detach()

    result = graded(LESSON, "train_step", returns_detached)
    assert result.kind == "loss_not_float" and "not a Python float" in result.message


def test_a_step_never_taken_is_not_called_a_reset_problem():
    def forgets_step(model, optimizer, x, y, loss_fn):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        return loss.item()

    result = graded(LESSON, "train_step", forgets_step)
    assert result.kind == "no_step" and "never called" in result.message


def test_accumulation_that_never_calls_backward_says_so():
    def forward_only(model, batches, loss_fn):
        model.zero_grad()
        for x, y in batches:
            loss_fn(model(x), y)

    result = graded(LESSON, "accumulated_grads", forward_only)
    assert "Did you call backward()?" in result.message


def test_fit_linear_returning_none_names_the_missing_return():
    result = graded(LESSON, "fit_linear", lambda x, y, steps, lr: None)
    assert result.kind == "not_a_model" and "missing `return`" in result.message


@pytest.mark.parametrize("returns", [True, False])
def test_a_hook_changing_its_argument_in_place_is_named_on_every_seed(returns):
    """.grad comes out right either way; the caller's hook, holding the same tensor, sees the change."""
    def clamps_in_place(model, max_value):
        def clip(grad):
            grad.clamp_(-max_value, max_value)
            return grad if returns else None
        return [p.register_hook(clip) for p in model.parameters()]

    for seed in range(12):
        result = graded(LESSON, "clip_with_hook", clamps_in_place, seeds=[seed])
        assert result.kind == "hook_in_place" and "changed the gradient it was given in place" in result.message


def test_the_self_check_shows_the_graders_message():
    with pytest.raises(CheckFailed, match="plus what .grad held before"):
        check.train_step(train_step_no_zero)


# --- what crosses from the kernel to the grader ----------------------------------------------------

@pytest.mark.parametrize("name", list(check.EXERCISES))
def test_the_kernel_sends_plain_data(name):
    """Identity, step and hook observations are made in the kernel and sent as bools, numbers, tensors."""
    ex = exercise(LESSON, name)
    seen = ex.observe(getattr(SOLUTIONS, name), 0)
    assert "__outcome__" not in seen
    dumps(seen)                      # raises on anything that is not plain data


def test_a_forged_observation_cannot_pass_by_being_short():
    """A cheat controls what the kernel sends: an empty list must not zip into a pass."""
    ex = exercise(LESSON, "grad_history")
    seen = ex.observe(SOLUTIONS.grad_history, 11)
    for run in seen["__runs__"]:
        run["histories"], run["walks"] = [], []
    from autograder.grading.judging.verdict import judge_sent
    assert not judge_sent(ex, 11, dumps(seen)).passed


def test_progress_lists_every_exercise():
    def stub(*args, **kwargs):
        raise NotImplementedError()

    namespace = {"grad_history": SOLUTIONS.grad_history, "reset_grads": stub, "train_step": train_step_no_zero}
    rows = {name: (status, detail) for name, status, detail in check.progress(namespace).rows}
    assert set(rows) == set(check.EXERCISES) and list(rows)[:len(check.CORE)] == list(check.CORE)
    assert rows["grad_history"][0] == "Correct"
    assert rows["reset_grads"][0] == rows["fit_linear"][0] == "Not attempted"
    assert rows["train_step"][0] == "Incorrect" and "plus what .grad held before" in rows["train_step"][1]
    html = check.progress(namespace)._repr_html_()
    assert html.index("Core</th>") < html.index("reset_grads") < html.index("Going further (optional)</th>")
    core, further = len(check.CORE), len(check.EXERCISES) - len(check.CORE)
    assert f"Core: 0 of {core} correct." in html and f"Going further: 1 of {further} correct." in html


def test_grad_history_plot_draws_bars_resets_and_none():
    from course.visuals.grad_history_plot import plot_grad_history

    figure = plot_grad_history([("backward()", 3.0), ("backward()", 6.0), ("x.grad.zero_()", 0.0),
                                ("x.grad = None", None)], one_call=3.0)
    (axes,) = figure.axes
    assert len(axes.patches) == 2                      # bars only for the backward() steps
    assert [t.get_text() for t in axes.get_xticklabels()][-1] == "4. x.grad = None"
    with pytest.raises(ValueError):
        plot_grad_history([])
