"""Lesson 2's checks: the source solutions pass on many seeds, stubs are "not attempted", hints
have levels, the rules the text states are watched while the answer runs (and leave nothing
patched behind), and the "Where am I" table reports each exercise."""
import math
import os

import pytest
import torch

from conftest import ROOT
from course.checks.explain_error import cell_note
from course.checks.technique import TorchCalls, counting
from course.exercises import backward as check
from course.outcome import CheckFailed, NotAttempted
from lesson_solutions import solutions
from trial import graded

LESSON = "02_backward"
SOLUTIONS = solutions(LESSON)
NAMES = list(check.EXERCISES)


def stub(*args):
    raise NotImplementedError()


@pytest.mark.parametrize("name", NAMES)
def test_the_source_solution_passes_on_many_seeds(name):
    result = graded(LESSON, name, getattr(SOLUTIONS, name), seeds=range(20, 30))
    assert result.passed, result.message


@pytest.mark.parametrize("name", NAMES)
def test_a_stub_is_not_attempted(name, monkeypatch, capsys):
    getattr(check, name)(stub)
    assert "not attempted" in capsys.readouterr().out.lower()
    assert graded(LESSON, name, stub).outcome == "not_attempted"
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(NotAttempted):
        getattr(check, name)(stub)


@pytest.mark.parametrize("name", NAMES)
def test_hints_have_levels_and_no_paste_ready_line(name):
    hints = getattr(check, name).hint_texts
    assert len(hints) >= 2
    assert not any(line.strip().startswith(("return ", "x = x.detach()")) for line in hints)


def test_hvp_hints_nudge_without_the_recipe():
    hints = check.hvp.hint_texts
    assert len(hints) >= 3 and "create_graph" not in hints[0] and "create_graph" in hints[1]
    assert not any("(g * v).sum()" in text or "autograd.grad(" in text for text in hints)


def test_hand_derivative_hints_leave_the_derivation_to_the_student():
    text = " ".join(check.hand_derivative.hint_texts)
    assert "cos" not in text and "-exp(-x)" not in text and "u' w" not in text


def test_a_dtype_error_gets_no_product_rule_advice():
    result = graded(LESSON, "hand_derivative", lambda x: SOLUTIONS.hand_derivative(x).float())
    assert "has dtype torch.float32" in result.message and "product rule" not in result.message


def test_another_correct_derivative_is_not_taken_for_finite_differences():
    def expanded(x):
        e = torch.exp(-x)
        return e * (2 * x * x.pow(2).cos() - (x * x).sin())
    assert graded(LESSON, "hand_derivative", expanded).passed


def test_a_second_forward_pass_is_seen_even_through_tensor_methods():
    def method_calls(x):
        x = x.detach().clone().requires_grad_(True)
        (x.sin() * x).sum().backward()
        first = x.grad.clone()
        x.grad = None
        ((x.sin() * x) ** 2).mean().backward()
        return first, x.grad
    result = graded(LESSON, "two_losses", method_calls)
    assert result.kind == "forward_repeated" and "h was computed 2 times" in result.message


def test_backward_with_create_graph_is_a_right_hvp():
    def with_backward(f, x, v):
        x = x.detach().clone().requires_grad_(True)
        (g,) = torch.autograd.grad(f(x), x, create_graph=True)
        (g * v).sum().backward()
        return x.grad
    assert graded(LESSON, "hvp", with_backward).passed


def test_a_missing_requires_grad_in_hvp_is_not_blamed_on_create_graph():
    def no_copy(f, x, v):
        (g,) = torch.autograd.grad(f(x), x, create_graph=True)
        return g
    result = graded(LESSON, "hvp", no_copy)
    assert "create_graph" not in result.message and "does not require grad" in result.message


def test_watching_an_answer_leaves_torch_as_it_was():
    backward, grad = torch.autograd.backward, torch.autograd.grad
    with counting(torch.autograd, "backward") as calls, TorchCalls(keep_arguments=("sin",)) as seen:
        x = torch.ones(2, requires_grad=True)
        torch.sin(x).sum().backward()
        x.cos()
    assert len(calls) == 1 and seen.count("sin") == 1 and seen.count("cos") == 1
    assert torch.equal(seen.arguments["sin"][0], torch.ones(2))
    assert torch.autograd.backward is backward and torch.autograd.grad is grad
    for name in NAMES:  # a check that raised mid-way restores them too
        graded(LESSON, name, lambda *args: math.sin(args[-1]))
    assert torch.autograd.backward is backward and torch.autograd.grad is grad
    assert "zero_" not in torch.Tensor.__dict__  # hvp's watch on zero_() is undone


def test_progress_reports_each_exercise():
    namespace = {"grad_via_backward": SOLUTIONS.grad_via_backward, "vjp": stub,
                 "two_losses": lambda x: (x, x)}
    report = check.progress(namespace)
    rows = {name: (status, detail) for name, status, detail in report.rows}
    assert list(rows) == list(check.CORE) + [name for name in NAMES if name not in check.CORE]
    assert rows["grad_via_backward"] == ("Correct", "")
    assert rows["vjp"] == ("Not attempted", "")
    assert rows["two_losses"][0] == "Incorrect" and rows["two_losses"][1]
    assert rows["hvp"] == ("Not attempted", "its cell has not been run")
    text = repr(report).splitlines()
    core, further = len(check.CORE), len(NAMES) - len(check.CORE)
    assert text[-1] == f"1 of {len(NAMES)} exercises correct." and f"Core: 1 of {core} correct." in text
    assert f"Going further: 0 of {further} correct." in text
    assert text.index("Core:") < text.index("Going further (optional):")
    assert "<table>" in report._repr_html_() and "Going further (optional)</th>" in report._repr_html_()


def test_progress_never_raises_under_validation(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    assert repr(check.progress({name: stub for name in NAMES})).splitlines()[-1] == \
        f"0 of {len(NAMES)} exercises correct."


def test_a_failing_self_check_shows_the_rule_first():
    with pytest.raises(CheckFailed) as failed:
        check.two_losses(lambda x: (torch.sin(x), torch.sin(x)))
    assert str(failed.value).startswith("h was computed 2 times")


def test_a_gradient_made_without_create_graph_is_explained_as_one_in_a_cell():
    """Section 11's own error: the note names create_graph, not only no_grad() and requires_grad."""
    x = torch.tensor(2.0, requires_grad=True)
    (dy_dx,) = torch.autograd.grad(x**3, x)
    with pytest.raises(RuntimeError) as raised:
        torch.autograd.grad(dy_dx, x)
    assert "create_graph=True" in cell_note(raised.value, check.ERROR_SECTIONS)


def test_the_hints_work_as_worded():
    """The scratch-cell test of hand_derivative reduces a vector f(x) before backward()."""
    assert "f(x).sum().backward()" in check.hand_derivative.hint_texts[2]


def test_the_core_leans_on_no_optional_section_of_lesson_1():
    """The core explains the copy it asks for (detach, clone, requires_grad_) itself: neither its text nor its
    exercises' hints send the reader to lesson 1's going-further sections."""
    text = open(os.path.join(ROOT, "source", LESSON, f"{LESSON}.py"), encoding="utf-8").read()
    core = text[:text.index("# # Going further")]
    assert "lesson 1, section" not in core.lower()
    assert all(word in core for word in ("x.detach()", ".clone()", ".requires_grad_(True)"))
    for name in check.CORE:
        assert not any("lesson 1" in hint for hint in getattr(check, name).hint_texts)


def test_every_trial_meets_the_edge_cases_the_texts_allow():
    """Each trial draws the edges itself, whatever the seed: a 0-d x, a dimension of size 1 and both float
    dtypes (grad_via_backward), x of two dimensions beside a small one (two_losses), one output or one element
    (vjp, jacobian_rows, hvp), and x large enough to overflow exp, either way (grads_with_intermediate)."""
    for seed in range(40):
        xs = check.grad_via_backward.inputs(seed)["xs"]
        assert {x.dtype for x in xs} == {torch.float32, torch.float64}
        assert any(x.dim() == 0 for x in xs) and any(1 in x.shape for x in xs)
        xs = check.two_losses.inputs(seed)["xs"]
        assert xs[0].dim() == 2 and xs[1].numel() <= 3 and {x.dtype for x in xs} == {torch.float32, torch.float64}
        assert any(x.shape == (1,) for x in check.vjp.inputs(seed)["xs"])
        assert any(x.shape == (1,) for x in check.hvp.inputs(seed)["xs"])
        assert any(x.shape == (1,) for x in check.jacobian_rows.inputs(seed)["xs"])
        x = check.grads_with_intermediate.inputs(seed)["x"]
        assert x.max() >= 750 and x.min() <= -750 and (x.abs() <= 2).any()


def test_a_first_gradient_sharing_grads_memory_is_named_whichever_view_kept_it():
    """x.grad.data, x.grad.detach() and x.grad[...] are new tensor objects over .grad's memory: the message
    names the shared memory, not .data cutting a graph."""
    for keep in ("data", "detach()", "[...]"):
        code = (f"def two_losses(x):\n    xc = x.detach().clone().requires_grad_(True)\n    h = torch.sin(xc) * xc\n"
                f"    h.sum().backward(retain_graph=True)\n    g1 = xc.grad{'.' if keep[0] != '[' else ''}{keep}\n"
                "    xc.grad.zero_()\n    (h**2).mean().backward()\n    return g1, xc.grad\n")
        namespace = {"torch": torch}
        exec(code, namespace)
        result = graded(LESSON, "two_losses", namespace["two_losses"])
        assert result.kind == "grad_shares_memory" and "cut off the graph" not in result.message, keep


def test_points_far_from_x_are_not_called_a_finite_difference():
    """f evaluated at a tensor of other values (here twice x) is wrong, and said so without
    "finite difference"; f on a reshaped view of the copy is x itself, and passes."""
    def doubled(f, x):
        leaf = x.detach().clone().requires_grad_(True)
        f(leaf * 2).backward()
        return leaf.grad
    result = graded(LESSON, "grad_via_backward", doubled)
    assert result.kind == "f_not_at_x" and "finite difference" not in result.message


def test_zero_before_the_first_backward_is_no_zeroed_g():
    """zero_() of a .grad with no graph (before backward(create_graph=True)) is no mistake."""
    def zero_first(f, x, v):
        xc = x.detach().clone().requires_grad_(True)
        xc.grad = torch.ones_like(xc)
        xc.grad.zero_()
        xc.grad = None
        (g,) = torch.autograd.grad(f(xc), xc, create_graph=True)
        (g * v).sum().backward()
        return xc.grad
    assert graded(LESSON, "hvp", zero_first).passed


def test_a_non_leafs_grad_read_in_an_answer_warns_once_without_the_checks_path(capfd):
    """The answer runs three times and the check watches it through a torch function mode: the warning
    is shown once, as the answer's, and its explanation names retain_grad()."""
    from IPython.core.interactiveshell import InteractiveShell
    from course.checks.explain_error import explain_errors_in_cells
    shell = InteractiveShell.instance()
    try:
        assert explain_errors_in_cells(check.ERROR_SECTIONS, shell)

        def grads_with_intermediate(x):
            x = x.detach().clone().requires_grad_(True)
            h = torch.tanh(x)
            (h**2 * x).sum().backward()
            return x.grad, h.grad
        with pytest.raises(CheckFailed):
            check.grads_with_intermediate(grads_with_intermediate)
    finally:
        import warnings
        shell.set_custom_exc((), None)
        warnings.showwarning = getattr(warnings.showwarning, "__wrapped__", warnings.showwarning)
        InteractiveShell.clear_instance()
    out, err = capfd.readouterr()
    said = out + err
    assert said.count("not a leaf Tensor is being accessed") == 1
    assert "course/exercises" not in said
    assert "call its retain_grad() before backward()" in said


def test_rows_over_the_inputs_says_whose_rows_are_whose():
    """The student's result has a row per element of x; the Jacobian has one per element of y."""
    from course.checks.mistakes import Mistake
    from course.exercises.backward.jacobian_rows import _rows_over_inputs
    want = torch.zeros(3, 2, dtype=torch.float64)
    with pytest.raises(Mistake) as raised:
        _rows_over_inputs("x * x.sum()", torch.zeros(2, 2, dtype=torch.float64), want, 2)
    assert "your result has 2 rows, one per element of x, but the Jacobian has 3, one per element of y" in \
        str(raised.value)
