"""Lesson 3 checks: typical mistakes are named, and other correct answers are accepted.

That the source notebook's solutions pass, that stubs are "not attempted" and that hints have
levels is checked for every lesson at once, in test_wrong_submissions and test_exercise_modules.
"""
import pytest
import torch

from course.exercises import no_grad as check
from course.outcome import CheckFailed
from lesson_solutions import solutions


SOLUTIONS = solutions("03_no_grad")


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
        return SOLUTIONS.evaluate(model, x)

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
