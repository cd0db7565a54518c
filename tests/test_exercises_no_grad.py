"""Lesson 3 checks: reference answers pass, stubs are "not attempted", typical mistakes are named.

The reference solutions live here, not in course/, which students can read.
"""
import pytest
import torch

from autograder import grade
from autograder.grade import GradingFailure
from course.exercises import no_grad as check
from course.outcome import CheckFailed, NotAttempted


def evaluate(model, x):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.train(was_training)
    return out


def stop_gradient_product(x):
    return x * (x**2).detach()


def to_numpy(t):
    return t.detach().clone().numpy()


def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad = None


def freeze_all_but_last(model):
    model.requires_grad_(False)
    [layer for layer in model if list(layer.parameters())][-1].requires_grad_(True)


REFERENCES = {f.__name__: f for f in (evaluate, stop_gradient_product, to_numpy, sgd_step, freeze_all_but_last)}


def stub(*args):
    raise NotImplementedError()


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_passes_self_check_and_grader(name):
    getattr(check, name)(REFERENCES[name])
    grade(f"no_grad.{name}", REFERENCES[name], trials=5)


@pytest.mark.parametrize("name", REFERENCES)
def test_stub_is_not_attempted(name, capsys, monkeypatch):
    getattr(check, name)(stub)
    assert "Not attempted" in capsys.readouterr().out
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(NotAttempted):
        getattr(check, name)(stub)
    with pytest.raises(GradingFailure, match="not attempted"):
        grade(f"no_grad.{name}", stub)


@pytest.mark.parametrize("name", REFERENCES)
def test_hints_have_two_levels(name):
    exercise = getattr(check, name)
    assert len(exercise.hints.texts) >= 2
    assert "Hint 1/" in repr(exercise.hint(1)) and "Hint 2/" in repr(exercise.hint(2))


def test_a_hard_coded_output_fails():
    fixed = torch.zeros(3)
    with pytest.raises(CheckFailed, match="z has shape|z should equal"):
        check.stop_gradient_product(lambda x: fixed)


def test_grad_mode_left_off_is_named():
    def evaluate_switching_off(model, x):
        was_training = model.training
        model.eval()
        torch.set_grad_enabled(False)
        out = model(x)
        model.train(was_training)
        return out

    with pytest.raises(CheckFailed, match="still switched off"):
        check.evaluate(evaluate_switching_off)
    assert torch.is_grad_enabled()


def test_inference_mode_evaluation_is_accepted():
    def evaluate_inference(model, x):
        was_training = model.training
        model.eval()
        with torch.inference_mode():
            out = model(x)
        model.train(was_training)
        return out

    check.evaluate(evaluate_inference)


def test_frozen_parameters_in_evaluate_are_named():
    def evaluate_freezing(model, x):
        model.requires_grad_(False)
        return evaluate(model, x)

    with pytest.raises(CheckFailed, match="switched off requires_grad"):
        check.evaluate(evaluate_freezing)


def test_sgd_step_without_skipping_none_is_named():
    def sgd_no_skip(params, lr):
        with torch.no_grad():
            for p in params:
                p -= lr * p.grad
                p.grad = None

    with pytest.raises(CheckFailed, match="took no part in the loss"):
        check.sgd_step(sgd_no_skip)


def test_sgd_step_replacing_list_entries_is_named():
    def sgd_replacing(params, lr):
        for i, p in enumerate(params):
            if p.grad is not None:
                params[i] = (p - lr * p.grad).detach().requires_grad_(True)

    with pytest.raises(CheckFailed, match="holds new tensors"):
        check.sgd_step(sgd_replacing)


def test_sgd_step_uphill_is_named():
    def sgd_uphill(params, lr):
        with torch.no_grad():
            for p in params:
                if p.grad is not None:
                    p += lr * p.grad
                    p.grad = None

    with pytest.raises(CheckFailed, match="uphill"):
        check.sgd_step(sgd_uphill)
