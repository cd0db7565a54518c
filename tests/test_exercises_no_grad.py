"""Lesson 3 checks: other correct answers are accepted, what the kernel observes leaves no trace,
and the judges cannot be passed by data a kernel makes up.

That the source notebook's solutions pass, that stubs are "not attempted", that hints have levels
and that each wrong answer of the corpus is named is checked for every lesson at once, in
test_wrong_submissions and test_exercise_modules.
"""
import os

import pytest
import torch

from autograder.authoring.wrong_answers import load_corpus
from autograder.grading.judging.verdict import expected_values
from course.checks.observation import round_trip
from course.exercises import no_grad as check
from course.outcome import CheckFailed
from conftest import ROOT
from lesson_solutions import define, solutions
from trial import exercise, graded

SOLUTIONS = solutions("03_no_grad")


def passes(name, answer):
    result = graded("03_no_grad", name, answer)
    assert result.passed, result.message


def evaluate_inference(model, x):
    was_training = model.training
    model.eval()
    with torch.inference_mode():
        out = model(x)
    model.train(was_training)
    return out


def stop_gradient_via_no_grad(x):
    with torch.no_grad():
        square = x**2
    return x * square


def to_numpy_via_array(t):
    return t.detach().numpy().copy()


def sgd_step_detach_sub(params, lr):
    for p in params:
        if p.grad is not None:
            p.detach().sub_(lr * p.grad)   # detach() shares the version counter: autograd sees it
            p.grad = None


def sgd_step_foreach(params, lr):
    with_grad = [p for p in params if p.grad is not None]
    if not with_grad:  # _foreach_add_ refuses an empty list, and the check gives one
        return
    with torch.no_grad():
        torch._foreach_add_(with_grad, [p.grad for p in with_grad], alpha=-lr)
    for p in with_grad:
        p.grad = None


def fix_inplace_clone(x):
    h = x * 2
    h += 1
    y = torch.tanh(h).clone()
    y *= 3
    y[:, 0] = 0
    return y


def fix_inplace_mask(x):
    mask = torch.ones(x.shape[1], dtype=x.dtype)
    mask[0] = 0
    return 3 * torch.tanh(2 * x + 1) * mask


def freeze_output_by_loop(model):
    for layer in list(model)[:-1]:
        for p in layer.parameters():
            p.requires_grad = False


def freeze_output_by_slice(model):
    model[:-1].requires_grad_(False)


def freeze_by_loop(model):
    layers = [layer for layer in model if any(True for _ in layer.parameters())]
    for layer in layers[:-1]:
        for p in layer.parameters():
            p.requires_grad = False


@pytest.mark.parametrize("name, answer", [
    ("evaluate", evaluate_inference),
    ("stop_gradient_product", stop_gradient_via_no_grad),
    ("to_numpy", to_numpy_via_array),
    ("sgd_step", sgd_step_detach_sub),
    ("sgd_step", sgd_step_foreach),
    ("fix_inplace", fix_inplace_clone),
    ("fix_inplace", fix_inplace_mask),
    ("freeze_all_but_output", freeze_output_by_loop),
    ("freeze_all_but_output", freeze_output_by_slice),
    ("freeze_all_but_output", freeze_by_loop),
    ("freeze_all_but_last", freeze_by_loop),
])
def test_other_correct_answers_pass(name, answer, capsys):
    getattr(check, name)(answer)
    assert "Correct" in capsys.readouterr().out
    passes(name, answer)


def test_a_hard_coded_output_fails():
    fixed = torch.zeros(3)
    result = graded("03_no_grad", "stop_gradient_product", lambda x: fixed)
    assert "z has shape" in result.message or "z should equal" in result.message


def test_grad_mode_is_on_again_after_a_check_that_found_it_off():
    def evaluate_switching_off(model, x):
        torch.set_grad_enabled(False)
        return SOLUTIONS.evaluate(model, x)

    with pytest.raises(CheckFailed, match="still switched off"):
        check.evaluate(evaluate_switching_off)
    assert torch.is_grad_enabled()


def test_data_watch_is_removed_even_when_the_answer_raises():
    def raises(x):
        x.data
        raise ValueError("boom")

    assert "raised" == graded("03_no_grad", "fix_inplace", raises).outcome
    assert "data" not in torch.Tensor.__dict__
    assert isinstance(torch.ones(1).data, torch.Tensor)


def test_data_is_named_in_sgd_step_only_when_the_values_are_right():
    """The version counter is read after the values: a wrong .data update is told its arithmetic first."""
    def sgd_uphill_via_data(params, lr):
        for p in params:
            if p.grad is not None:
                p.data += lr * p.grad
                p.grad = None

    assert graded("03_no_grad", "sgd_step", sgd_uphill_via_data).kind == "uphill"


@pytest.mark.parametrize("name, made_up", [
    ("evaluate", {"cases": []}),
    ("to_numpy", {"results": []}),
    ("freeze_all_but_last", {"cases": []}),
    ("freeze_all_but_output", {"cases": []}),
    ("sgd_step", {"none_grad_error": None, "grad_mode_left_off": False, "list_replaced": False,
                  "params": [], "version_moved": [], "grads": []}),
    ("fix_inplace", {"cases": []}),
])
def test_made_up_observations_do_not_pass(name, made_up):
    ex = exercise("03_no_grad", name)
    assert not ex.verdict(round_trip(made_up), expected_values(ex, 11), 11).passed


@pytest.mark.parametrize("name", ["freeze_all_but_output", "freeze_all_but_last"])
def test_freeze_judge_reads_the_flags_sent_not_the_grader_copy(name):
    """The judge's inputs are the grader's fresh model: all its parameters require grad."""
    ex = exercise("03_no_grad", name)
    seen = ex.observe(lambda model: None, 11)
    result = ex.verdict(seen, expected_values(ex, 11), 11)
    assert result.kind == "not_frozen"


def test_a_plain_attribute_is_named_only_where_a_kernel_can_honestly_say_it_was_set():
    """The kernel says where it found `requires_grad` set as a plain attribute; anything else it sends
    (made-up text) is not repeated in the message, which falls back to the frozen flags."""
    ex = exercise("03_no_grad", "freeze_all_but_output")

    def frozen_everything(model):
        model.requires_grad_(False)
        model[-1].requires_grad = True  # the slip: a plain attribute on the module

    seen = ex.observe(frozen_everything, 11)
    assert ex.verdict(seen, expected_values(ex, 11), 11).kind == "plain_requires_grad"
    for run in seen["__runs__"]:
        for case in run["cases"]:
            case["plain_flag"] = ["<b>Correct</b> really"]
    result = ex.verdict(round_trip(seen), expected_values(ex, 11), 11)
    assert not result.passed and result.kind == "all_frozen" and "really" not in str(result.message)


def test_the_core_models_end_in_a_linear_with_hidden_layers_before_it():
    """Freezing model[0] alone is not enough, and model[-1] is the layer to keep: what the text says."""
    for seed in range(20):
        for case in check.freeze_all_but_output.inputs(seed)["cases"]:
            linears = [layer for layer in case["model"] if isinstance(layer, torch.nn.Linear)]
            assert isinstance(case["model"][-1], torch.nn.Linear) and len(linears) >= 3


def test_evaluate_sees_a_recorded_forward_pass_and_its_hooks_go():
    """detach() after a recorded forward pass is named; the watcher leaves no hook on the model."""
    detached = next(a for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))
                    if (a.assignment, a.name) == ("03_no_grad", "evaluate_detaches_after"))
    assert graded("03_no_grad", "evaluate", define(detached.code, "evaluate")).kind == "recorded_then_detached"
    ex = exercise("03_no_grad", "evaluate")
    inputs = ex.inputs(11)
    ex.call(SOLUTIONS.evaluate, inputs)
    assert not any(m._forward_hooks for case in inputs["cases"] for m in case["model"].modules())


def test_progress_lists_each_exercise():
    def stub(*args):
        raise NotImplementedError()

    namespace = {"evaluate": SOLUTIONS.evaluate, "to_numpy": lambda t: t.detach().numpy(),
                 "sgd_step": stub}
    rows = {name: (status, detail) for name, status, detail in check.progress(namespace).rows}
    assert rows["evaluate"] == ("Correct", "")
    assert rows["to_numpy"][0] == "Incorrect" and "shares memory" in rows["to_numpy"][1]
    assert rows["sgd_step"][0] == "Not attempted"
    assert rows["fix_inplace"] == ("Not attempted", "its cell has not been run")
    text = repr(check.progress(namespace)).splitlines()
    # the core apart, each part counted on its own: evaluate is a going-further exercise
    assert text[0] == "Core:" and text[1].split()[0] == check.CORE[0]
    core, further = len(check.CORE), len(check.EXERCISES) - len(check.CORE)
    assert f"Core: 0 of {core} correct." in text and f"Going further: 1 of {further} correct." in text
    assert text[-2].startswith("Written answer") and text[-1] == f"1 of {len(check.EXERCISES)} exercises correct."
    assert list(check.EXERCISES)[:len(check.CORE)] == list(check.CORE)


def test_every_trial_draws_the_edge_cases_the_texts_allow():
    """Each trial, on any seed, meets what the exercise texts say may come: a 0-d x and a 0-d parameter,
    an empty list and one with no .grad, a frozen layer, one row and one output, a 0-d and a transposed
    tensor, narrow, wide and large-valued x, a single Linear, a model in eval mode."""
    for seed in range(20):
        assert check.stop_gradient_product.inputs(seed)["scalar"].dim() == 0
        sgd = check.sgd_step.inputs(seed)
        assert sgd["params"][sgd["scalar"]].dim() == 0 and sgd["params"][sgd["unused"]].grad is None
        assert sgd["scalar"] != sgd["unused"] and any(p.dim() and p.grad is not None for p in sgd["params"])
        assert all(p.grad is None for p in sgd["all_none"])
        fine_tuned = check.evaluate.inputs(seed)["cases"][-1]
        assert not fine_tuned["model"][0].weight.requires_grad and fine_tuned["model"][-1].weight.requires_grad
        assert fine_tuned["x"].shape[0] == 1 and fine_tuned["model"][-1].out_features == 1
        tensors = check.to_numpy.inputs(seed)["tensors"]
        assert any(t.dim() == 0 for t in tensors) and any(not t.is_contiguous() for t in tensors)
        widths = [case["x"].shape[1] for case in check.fix_inplace.inputs(seed)["cases"]]
        assert widths[0] == 3 and widths[1] > 3 and widths[2] < 3
        assert check.fix_inplace.inputs(seed)["cases"][0]["x"].abs().max() >= 200
        cases = check.freeze_all_but_last.inputs(seed)["cases"]
        assert sum(isinstance(m, torch.nn.Linear) for m in cases[-1]["model"]) == 1
        assert [case["model"].training for case in cases] == [True, False, True, True]
