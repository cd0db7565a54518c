"""Lesson 1's checks: reference answers pass, stubs are "not attempted", hints have levels,
and the oracle's bookkeeping (names and node counts recorded while building) agrees with a walk."""
import pytest
import torch
from torch import nn

from autograder import grade
from autograder.grade import GradingFailure
from course.exercise import Exercise
from course.exercises import graph as check
from course.visuals.graph_walk import walk_graph
from course.outcome import CheckFailed, NotAttempted
from course.checks.random_inputs import generator


def make_leaf(data):
    return torch.as_tensor(data, dtype=torch.float64).detach().clone().requires_grad_(True)


def grad_fn_names(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(node.name())  # "torch::autograd::AccumulateGrad" is accepted too
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[0] if following else None
    return names


def count_nodes(y):
    seen, stack = set(), [y.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            stack.extend(n for n, _ in node.next_functions)
    return len(seen)


def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    return {"a * b": (either, not either), "a.detach()": (False, True),
            "a.double()": (a_requires, not a_requires), "a + b.detach()": (a_requires, not a_requires),
            "nn.Parameter(b)": (True, True)}


def build_f(x):
    return torch.log(x.abs()) * 2 * torch.sin(x) + x.reciprocal()  # another correct way


REFERENCES = {"make_leaf": make_leaf, "grad_fn_names": grad_fn_names, "count_nodes": count_nodes,
              "predict_flags": predict_flags, "build_f": build_f}


def stub(*args):
    raise NotImplementedError()


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_passes_self_check_and_grader(name):
    exercise = getattr(check, name)
    assert isinstance(exercise, Exercise)
    exercise(REFERENCES[name])
    for seed in range(5):
        exercise(REFERENCES[name], seed=seed)
    grade(f"graph.{name}", REFERENCES[name])


@pytest.mark.parametrize("name", REFERENCES)
def test_stub_is_not_attempted(name, monkeypatch, capsys):
    getattr(check, name)(stub)
    assert "not attempted" in capsys.readouterr().out.lower()
    with pytest.raises(GradingFailure, match="not attempted"):
        grade(f"graph.{name}", stub)
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(NotAttempted):
        getattr(check, name)(stub)


@pytest.mark.parametrize("name", REFERENCES)
def test_hints_have_levels(name):
    hints = getattr(check, name).hints
    assert len(hints.texts) >= 2
    assert hints.show().level == 1 and hints.show().level == 2


def test_chain_names_match_a_walk():
    for seed in range(200):
        _, y, _, expected = check._random_chain(generator(seed))
        assert grad_fn_names(y)[:-1] == expected[:-1] and expected[-1] == "AccumulateGrad"


def test_shared_graph_counts_match_a_walk():
    for seed in range(200):
        y, _, expected, leaves = check._random_shared_graph(generator(seed))
        assert len(walk_graph(y).nodes) == expected == count_nodes(y)
        assert leaves == 2


def test_wrong_answers_are_named():
    def tree(y):
        def count(node):
            return 1 + sum(count(n) for n, _ in node.next_functions if n is not None)
        return count(y.grad_fn)
    with pytest.raises(CheckFailed, match="once per path"):
        check.count_nodes(tree)
    with pytest.raises(CheckFailed, match="not a leaf"):
        check.make_leaf(lambda data: torch.tensor(data, dtype=torch.float32, requires_grad=True).double())
    with pytest.raises(CheckFailed, match="no grad_fn"):
        check.build_f(lambda x: (torch.log(x**2) * torch.sin(x) + 1 / x).detach())
    with pytest.raises(CheckFailed, match="called backward"):
        def with_backward(x):
            y = torch.log(x**2) * torch.sin(x) + 1 / x
            y.sum().backward(retain_graph=True)
            return y
        check.build_f(with_backward)


def test_predictions_cannot_build_tensors():
    def measures(a_requires, b_requires):
        torch.zeros(1)
    with pytest.raises(CheckFailed, match="without building tensors"):
        check.predict_flags(measures)
    assert torch.zeros(1).shape == (1,)  # switched back on afterwards
    assert nn.Parameter(torch.zeros(1)).requires_grad
