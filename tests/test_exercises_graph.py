"""Lesson 1's checks: other correct answers pass the grader and the self-check, the references'
bookkeeping agrees with an independent walk, predictions stay sealed, a cheat's short or odd data
never passes, and the lesson's "Where am I" table reports each exercise's state."""
import json
import math
from math import log as log_imported_before_the_check

import pytest
import torch

from autograder.authoring import expectations
from autograder.grading.judging.references.graph.count_nodes import _shared_graph_counts
from autograder.grading.judging.references.graph.grad_fn_names import _chain_names
from course.checks.observation import Sealed, dumps
from course.checks.random_inputs import generator
from course.exercises import graph as check
from course.exercises.graph.count_nodes import inputs as count_nodes_inputs
from course.exercises.graph.grad_fn_names import inputs as chains_inputs
from course.exercises.graph.predict_flags import EXPRESSIONS, FLAG_CASES
from course.outcome import CORRECT, INCORRECT, CheckFailed
from course.visuals.graph_walk import walk_graph
from trial import GRADER_SEEDS, graded


def leaf_from_list(values):
    return torch.as_tensor(values, dtype=torch.float64).requires_grad_()


def make_leaf(data):
    return torch.tensor(data, dtype=torch.float64).requires_grad_() if not isinstance(data, torch.Tensor) \
        else data.detach().to(torch.float64, copy=True).requires_grad_()


def grad_fn_names(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(node.name())  # "torch::autograd::AccumulateGrad" is accepted too
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[0] if following else None
    return names


def count_nodes(y):
    seen, todo = set(), [y.grad_fn]
    while todo:
        node = todo.pop(0)
        if node is not None and node not in seen:  # nodes hash by identity
            seen.add(node)
            todo.extend(n for n, _ in node.next_functions)
    return len(seen)


def predict_flags(a_requires, b_requires):
    return {"a * b": [a_requires or b_requires, not (a_requires or b_requires)], "a.detach()": (False, True),
            "a.double()": (a_requires, not a_requires), "a + b.detach()": (a_requires, not a_requires),
            "nn.Parameter(b)": (True, True)}


def build_f(x):
    return torch.log(x.abs()) * 2 * torch.sin(x) + x.reciprocal()


OTHER_CORRECT_ANSWERS = {"leaf_from_list": leaf_from_list, "make_leaf": make_leaf, "grad_fn_names": grad_fn_names, "count_nodes": count_nodes,
                         "predict_flags": predict_flags, "build_f": build_f}


@pytest.mark.parametrize("name", OTHER_CORRECT_ANSWERS)
def test_other_correct_answers_pass_the_grader_and_the_self_check(name, capsys):
    assert graded("01_graph", name, OTHER_CORRECT_ANSWERS[name], seeds=GRADER_SEEDS + (0, 1, 2)).passed
    getattr(check, name)(OTHER_CORRECT_ANSWERS[name])
    assert "Correct" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["grad_fn_names", "count_nodes", "predict_flags", "make_leaf"])
def test_hard_exercises_have_three_levels_of_nudges(name):
    texts = getattr(check, name).hints.texts
    assert len(texts) >= 3
    assert not any("return " in text or "def " in text for text in texts)


def test_chain_names_agree_with_a_walk():
    for seed in range(100):
        for _, y, _ in chains_inputs(generator(seed))["chains"]:
            walked = [type(node.grad_fn).__name__ for node in walk_graph(y).nodes]
            assert _chain_names(y) == walked and walked[-1] == "AccumulateGrad"


def test_core_chains_hold_a_constant_and_never_first():
    """The core's chains: a None entry to skip is always there, but after the node to follow, so the
    walk of section 3 (next_functions[0]) is enough; count_nodes is where constants come first."""
    for seed in range(100):
        for _, y, _ in chains_inputs(generator(seed))["chains"]:
            node, saw_none = y.grad_fn, False
            while node.next_functions:
                assert node.next_functions[0][0] is not None
                saw_none = saw_none or any(n is None for n, _ in node.next_functions)
                node = node.next_functions[0][0]
            assert saw_none


def test_shared_graph_counts_agree_with_a_walk():
    for seed in range(100):
        for y, _ in count_nodes_inputs(generator(seed))["graphs"]:
            counts = _shared_graph_counts(y)
            assert counts["count"] == len(walk_graph(y).nodes) == count_nodes(y)
            assert counts["without_leaves"] == counts["count"] - 2 and counts["per_path"] > counts["count"]


def test_every_trial_draws_each_input_the_texts_allow():
    """The edge cases are in every trial, not left to some seeds: the self-check meets them too."""
    from course.exercises.graph.build_f import inputs as build_f_inputs
    from course.exercises.graph.leaf_from_list import inputs as list_inputs
    from course.exercises.graph.make_leaf import inputs as make_leaf_inputs
    for seed in range(50):
        rng = generator(seed)
        ints, floats, mixed, one, empty = list_inputs(rng)["cases"]
        assert all(type(v) is int for v in ints) and all(type(v) is float for v in floats)
        assert type(mixed[0]) is int and {type(v) for v in mixed} == {int, float}
        assert len(one) == 1 and empty == []
        cases = make_leaf_inputs(generator(seed))["cases"]
        tensors = [c for c in cases if isinstance(c, torch.Tensor)]
        assert {t.dtype for t in tensors} >= {torch.int64, torch.int32, torch.int8, torch.uint8, torch.bool,
                                             torch.float16, torch.bfloat16, torch.float32, torch.float64}
        assert [] in cases and any(t.dim() == 0 and t.grad_fn is not None for t in tensors)
        assert any(t.dim() == 2 and t.shape[0] == 1 for t in tensors)
        assert any(t.dtype == torch.int64 and t.abs().max() > 2**24 for t in tensors)
        xs = build_f_inputs(generator(seed))["xs"]
        assert {x.dtype for x in xs[1:]} == {torch.float64, torch.float32} and xs[1].dim() == 2 and xs[2].dim() == 0
        assert all(0.5 <= v <= 2 for x in xs for v in x.detach().abs().view(-1).tolist())
        assert all((x.detach() < 0).any() and (x.detach() > 0).any() for x in xs if x.numel() > 1)
        chains = [_chain_names(y) for _, y, _ in chains_inputs(generator(seed))["chains"]]
        assert len(set(chains[1])) < len(chains[1]) and len(chains[2]) == 2  # a name twice; one operation
        assert all(torch.isfinite(y).all() for _, y, _ in chains_inputs(generator(seed))["chains"])


def test_no_mistake_of_count_nodes_gives_the_right_count():
    """Each mistake a message names gives another count than the right one, on every graph drawn."""
    for seed in range(100):
        for y, _ in count_nodes_inputs(generator(seed))["graphs"]:
            counts = _shared_graph_counts(y)
            wrong = [counts["per_path"], counts["arrows"], counts["without_leaves"], counts["count"] + 1,
                     counts["count"] - 1, *counts["by_name"].values()]
            assert counts["count"] not in wrong and torch.isfinite(y).all()


def _sealed(value):
    return {"__sealed__": Sealed.of(value).digest}


def test_flag_answers_are_stored_only_as_seals_over_the_whole_table():
    stored = json.loads(expectations.text_of("graph"))["predict_flags"]["0"]
    text = json.dumps(stored).lower()
    assert "true" not in text and "false" not in text
    digests = {d["__sealed__"] for d in [stored["table"], *stored["one_expression"].values(),
                                         *(s for seals in stored["one_pair"].values() for s in seals)]}
    assert len(digests) == 1 + 5 + 5 * 4
    # What a student could try: each pair alone, in every shape a digest of one answer might take.
    for key in EXPRESSIONS:
        for a_requires, b_requires in FLAG_CASES:
            for pair in ([r, leaf] for r in (False, True) for leaf in (False, True)):
                for guess in (pair, {key: pair}, {"expression": key, "a_requires": a_requires,
                                                  "b_requires": b_requires, "flags": pair}):
                    assert _sealed(guess)["__sealed__"] not in digests


@pytest.mark.parametrize("case", range(4))
def test_a_wrong_prediction_names_its_place_and_section_not_the_rule(case):
    cases = FLAG_CASES

    def wrong(a_requires, b_requires):
        right = predict_flags(a_requires, b_requires)
        if (a_requires, b_requires) == cases[case]:
            right["a.double()"] = (right["a.double()"][0], not right["a.double()"][1])
        return right
    result = graded("01_graph", "predict_flags", wrong, seeds=(11,))
    a, b = cases[case]
    assert result.kind == "wrong_prediction" and f"`a.double()` is wrong for a_requires={a}, b_requires={b}" \
        in result.message and "section 2" in result.message
    assert "recorded (ToCopyBackward0)" not in result.message


def test_predictions_wrong_in_one_expression_or_several_are_told_apart():
    def one(a_requires, b_requires):
        return {**predict_flags(a_requires, b_requires), "nn.Parameter(b)": (b_requires, True)}

    def several(a_requires, b_requires):
        return {key: (False, True) for key in EXPRESSIONS}
    assert "predictions for `nn.Parameter(b)` are wrong (the other four" in graded("01_graph", "predict_flags", one).message
    assert "more than one expression" in graded("01_graph", "predict_flags", several).message


def test_predictions_cannot_build_tensors_by_any_route():
    for build in (lambda: torch.Tensor([1.0]), lambda: torch.zeros(1), lambda: torch.ones(2).sum()):
        def measures(a_requires, b_requires, build=build):
            build()
        assert graded("01_graph", "predict_flags", measures).kind == "measured"
    assert torch.zeros(1).shape == (1,)  # tensors work again afterwards


@pytest.mark.parametrize("name, sent", [
    ("make_leaf", {"cases": []}), ("leaf_from_list", {"cases": []}), ("grad_fn_names", {"names": []}), ("count_nodes", {"counts": []}),
    ("predict_flags", {"predictions": []}), ("build_f", {"f": None}),
    ("predict_flags", {"predictions": "aaaa"}), ("count_nodes", {"counts": [True, True]}),
    ("count_nodes", {"counts": [1, 1]}),  # no second count on the same y: a short answer must not pass
])
def test_short_or_odd_data_from_a_kernel_never_passes(name, sent):
    from autograder.grading.judging.verdict import judge_sent
    exercise = check.EXERCISES[name]
    assert judge_sent(exercise, 11, dumps(sent)).outcome == INCORRECT


def test_math_on_a_tensor_is_explained_in_autograd_terms():
    def imported_log(x):
        return log_imported_before_the_check(x**2) * torch.sin(x) + 1 / x
    result = graded("01_graph", "build_f", imported_log)
    assert result.kind == "left_autograd" and "Autograd records only torch operations" in result.message
    assert math.log(math.e) == 1.0 and math.log.__module__ == "math"  # put back after the call


def test_the_self_check_says_what_is_wrong():
    with pytest.raises(CheckFailed, match="called backward"):
        def with_backward(x):
            y = torch.log(x**2) * torch.sin(x) + 1 / x
            y.sum().backward(retain_graph=True)
            return y
        check.build_f(with_backward)


def test_where_am_i_lists_each_exercise_state():
    def stub(*args):
        raise NotImplementedError()
    table = check.progress({"leaf_from_list": leaf_from_list, "make_leaf": make_leaf,
                            "grad_fn_names": lambda y: ["SumBackward0"], "count_nodes": stub, "build_f": build_f})
    rows = {name: (status, why) for name, status, why in table.rows}
    assert [name for name, _, _ in table.rows][:2] == ["leaf_from_list", "grad_fn_names"]  # the core first
    assert rows["leaf_from_list"] == rows["make_leaf"] == rows["build_f"] == ("Correct", "")
    assert rows["grad_fn_names"][0] == "Incorrect" and rows["grad_fn_names"][1].startswith("your list goes wrong at position 0")
    assert rows["count_nodes"][0] == rows["predict_flags"][0] == "Not attempted"
    assert f"3 of {len(check.EXERCISES)} exercises correct." in repr(table) and "<table>" in table._repr_html_()
    assert graded("01_graph", "make_leaf", make_leaf).outcome == CORRECT
