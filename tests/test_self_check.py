"""The exercise contract: one verdict function, three outcomes, hints, and the data boundary.

A toy exercise ("double x") shows each path: the kernel-side call returns plain data, the judge
names the mistake, the self-check and the grader give the same message, and nothing an answer's
run sends back can claim success by itself.
"""
import json

import pytest
import torch

from autograder.grading.judging.verdict import judge_sent, seeds
from course.checks.mistakes import Mistake
from course.checks.observation import Sealed, Unreadable, dumps, loads, round_trip
from course.checks.repeated_calls import other_seed
from course.exercise import Exercise
from course.hints import Hints
from course.outcome import (CORRECT, INCORRECT, NOT_ATTEMPTED, RAISED, CheckFailed, NotAttempted, Verdict,
                            show_self_check, verdict)


def _inputs(rng):
    return {"x": torch.rand(3, generator=rng, dtype=torch.float64)}


def _call(answer, inputs):
    return {"doubled": answer(inputs["x"])}


def _judge(seen, expected, inputs):
    if not torch.equal(seen["doubled"], expected["doubled"]):
        raise Mistake("not doubled", "not_doubled")


double = Exercise(_inputs, _call, _judge, ["multiply", "by two"]).named("double", "toy")


def expected(seed):
    return {"doubled": 2 * double.inputs(seed)["x"]}


def judged(answer, seed=3):
    return double.verdict(double.observe(answer, seed), expected(seed), seed)


def test_the_name_comes_from_the_declaration():
    assert (double.name, double.lesson) == ("double", "toy")


def test_each_outcome_from_one_place():
    assert judged(lambda x: 2 * x) == Verdict(CORRECT)
    assert judged(lambda x: x) == Verdict(INCORRECT, "not doubled", "not_doubled")

    def stub(x):
        raise NotImplementedError()
    assert judged(stub).outcome == NOT_ATTEMPTED

    def backward_twice(x):
        y = (x.requires_grad_() * 2).sum()
        y.backward()
        y.backward()
    raised = judged(backward_twice)
    assert raised.outcome == RAISED and "retain_graph=True" in raised.message


def test_a_kernel_can_report_failures_but_never_success():
    assert verdict(_judge, {"__outcome__": "correct"}, {}, {}).outcome == INCORRECT
    assert verdict(_judge, {"__outcome__": "raised", "message": "x" * 9999}, {}, {}).message == "x" * 1500
    # garbage where a tensor belongs is "incorrect", not a crash of the grader
    assert verdict(_judge, {"doubled": "all tests passed"}, expected(1), {}).kind == "unreadable"


def test_inputs_are_the_same_on_both_sides_for_a_seed():
    assert torch.equal(double.inputs(5)["x"], double.inputs(5)["x"])
    assert not torch.equal(double.inputs(5)["x"], double.inputs(6)["x"])


def test_observations_cross_as_data_only():
    t = torch.arange(6.0, requires_grad=True).reshape(2, 3)
    back = round_trip({"t": t, "n": 3, "s": "x", "l": [None, True, 1.5], "b": torch.ones(2, dtype=torch.bfloat16)})
    assert torch.equal(back["t"], t.detach()) and back["t"].requires_grad is False
    assert back["b"].dtype == torch.bfloat16
    with pytest.raises(Unreadable):
        dumps({"f": lambda: 1})
    with pytest.raises(Unreadable):
        loads('{"__tensor__": "torch.float32", "shape": [100000, 100000], "data": "", '
              '"requires_grad": false, "is_leaf": true, "grad_fn": null}')
    with pytest.raises(Unreadable):
        loads('{"__tensor__": "os.system", "shape": [1], "data": "", "requires_grad": false, '
              '"is_leaf": true, "grad_fn": null}')


def test_sealed_values_compare_without_showing():
    sealed = Sealed.of([True, False])
    assert sealed.matches([True, False]) and not sealed.matches([False, False])
    assert "True" not in dumps({"answer": sealed})


def test_the_grader_judges_what_was_sent_against_its_own_reference(monkeypatch):
    import autograder.grading.judging.verdict as grader
    monkeypatch.setattr(grader, "reference", lambda lesson, name: lambda inputs: {"doubled": 2 * inputs["x"]})
    assert judge_sent(double, 4, dumps(double.observe(lambda x: 2 * x, 4))).passed
    assert judge_sent(double, 4, dumps(double.observe(lambda x: x, 4))).kind == "not_doubled"
    # values right for another seed do not pass: the grader rebuilds the inputs from its own seed
    assert not judge_sent(double, 4, dumps(double.observe(lambda x: 2 * x, 5))).passed
    assert judge_sent(double, 4, None).kind == "no_result"
    assert judge_sent(double, 4, "not json").kind == "unreadable"


def test_self_check_shows_or_raises(capsys, monkeypatch):
    show_self_check("double", Verdict(CORRECT), 0)
    assert "Correct" in capsys.readouterr().out
    with pytest.raises(CheckFailed, match="not doubled") as failure:
        show_self_check("double", Verdict(INCORRECT, "not doubled"), 7)
    assert "seed 7" in str(failure.value) and "Incorrect" in failure.value._render_traceback_()[0]
    show_self_check("double", Verdict(NOT_ATTEMPTED), 0)
    assert "Not attempted yet" in capsys.readouterr().out
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(NotAttempted):
        show_self_check("double", Verdict(NOT_ATTEMPTED), 0)


def test_hints_go_level_by_level():
    hints = Hints("x", ["first", "second"])
    assert "first" in repr(hints.show()) and "again" in repr(hints.show(1))
    assert "second" in repr(hints.show()) and "again" not in repr(hints.show())
    with pytest.raises(ValueError):
        Hints("x", ["only one"])


def test_the_last_hint_says_so_and_html_shows_backticks_as_code():
    hints = Hints("x", ["use `zero_()`", "second"])
    first, last = hints.show(), hints.show()
    assert "<code>zero_()</code>" in first._repr_html_() and "`" not in first._repr_html_()
    assert "last hint" in repr(last) and "last hint" in last._repr_html_()
    from course.outcome import Outcome, code_spans
    assert "<code>double</code> matches" in Outcome("correct", "`double` matches")._repr_html_()
    assert code_spans("a ` b <c>") == "a ` b &lt;c&gt;"  # an unpaired backtick stays as it is


def test_two_hint_calls_in_one_cell_show_both(capsys):
    """check.NAME.hint() displays the hint itself: a value returned would show only if it ended the cell."""
    hints = Hints("x", ["first", "second"])
    assert hints.display() is None and hints.display() is None
    out = capsys.readouterr().out
    assert "Hint 1/2 for x: first" in out and "Hint 2/2 for x: second" in out


def test_grader_seeds_are_fresh_unless_pinned():
    assert len(set(seeds(3))) == 3
    assert seeds(2, 1234)[0] == 1234 and seeds(2, 0)[0] == 0


@pytest.fixture
def expected_dir(tmp_path, monkeypatch):
    import course.stored_values as stored_values
    monkeypatch.setattr(stored_values, "EXPECTED_DIR", str(tmp_path))
    stored_values._stored.cache_clear()
    yield tmp_path
    stored_values._stored.cache_clear()


def test_missing_stored_values_name_the_file_and_the_fix(expected_dir):
    """An install without the package data says so; it never blames the seed or the answer."""
    from course.stored_values import StoredValuesMissing
    with pytest.raises(StoredValuesMissing) as missing:
        double(lambda x: 2 * x)
    message = str(missing.value)
    assert str(expected_dir / "toy.json") in message and "autograd-course build" in message
    assert "Reinstall" in message and "seed" not in message


@pytest.mark.parametrize("text, why", [("{not json", "cannot be read"), ("[]", "not a table"),
                                       ('{"other": {}}', "holds no values for `double`")])
def test_unreadable_or_stale_stored_values_name_the_file(expected_dir, text, why):
    from course.stored_values import StoredValuesMissing
    (expected_dir / "toy.json").write_text(text)
    with pytest.raises(StoredValuesMissing, match=why) as missing:
        double(lambda x: 2 * x)
    assert "toy.json" in str(missing.value) and "seed" not in str(missing.value)


def _mean_inputs(rng):
    from course.checks import random_inputs as rand
    return {"x": rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng))}


def _mean_judge(seen, expected, inputs):
    from course.checks.diagnose import diagnose_tensor
    from course.checks.mistakes import require
    require(diagnose_tensor(expected["mean"], seen["mean"], "the mean"))
    if not torch.allclose(seen["mean"], expected["mean"]):
        raise Mistake("not the mean", "wrong_value")


mean_of = Exercise(_mean_inputs, lambda answer, inputs: {"mean": answer(inputs["x"])}, _mean_judge,
                   ["mean", "over every element"]).named("mean_of", "toy")


@pytest.fixture
def stored_means(expected_dir):
    """The toy's values stored for the seeds the build would choose: seed 0 draws a 1-D x of 5 elements."""
    from autograder.authoring.self_check_seeds import covering_seeds
    from course.checks.observation import encode
    seeds = covering_seeds(mean_of)
    stored = {str(seed): encode({"mean": mean_of.inputs(seed)["x"].mean()}) for seed in seeds}
    (expected_dir / "toy.json").write_text(json.dumps({"mean_of": stored}))
    return seeds


def test_the_self_check_judges_every_kind_of_input_the_grader_draws(stored_means, capsys):
    """Answers right for seed 0's x alone (1-D, 5 elements, float64) fail on another stored seed."""
    x0 = mean_of.inputs(0)["x"]
    assert x0.shape == (5,)
    mean_of(lambda x: x.sum() / 5, seed=0)  # seed 0 alone cannot tell
    assert "Correct" in capsys.readouterr().out
    for wrong in (lambda x: x.sum() / len(x), lambda x: x.sum() / 5, lambda x: x.double().mean()):
        with pytest.raises(CheckFailed) as failed:
            mean_of(wrong)
        seed = int(str(failed.value).rsplit("seed ", 1)[1].rstrip(")"))
        assert seed in stored_means and seed != 0
    mean_of(lambda x: x.mean())
    assert f"on all {len(stored_means)} inputs stored for it" in capsys.readouterr().out


def test_every_stored_seed_can_be_checked_alone(stored_means, capsys):
    for seed in stored_means:
        mean_of(lambda x: x.mean(), seed=seed)
        assert f"matches PyTorch on seed {seed}'s inputs" in capsys.readouterr().out


def test_a_seed_not_stored_runs_its_own_inputs_and_says_what_it_compared_instead(stored_means, capsys):
    """A grader's seed: what happens on its own inputs shows as at grading; the values are compared on
    the stored seed most like it, and the message says so and why, never pretending."""
    seed = next(s for s in range(10**6, 10**7) if mean_of.inputs(s)["x"].dim() == 2)
    mean_of(lambda x: x.mean(), seed=seed)
    said = capsys.readouterr().out
    assert f"ran on seed {seed}'s inputs" in said and "which draws the same kinds of input" in said
    assert f"Seed {seed}'s own values cannot be compared here" in said and "stays with the grader" in said

    def fails_on_2d(x):
        if x.dim() == 2:
            raise ValueError("only vectors")
        return x.mean()

    with pytest.raises(CheckFailed) as failed:
        mean_of(fails_on_2d, seed=seed)
    assert "only vectors" in str(failed.value) and f"seed {seed})" in str(failed.value)
    with pytest.raises(CheckFailed) as failed:
        mean_of(lambda x: x.sum() / len(x), seed=seed)
    like = int(str(failed.value).split("with seed ", 1)[1].split(",")[0])
    assert like in stored_means and mean_of.inputs(like)["x"].dim() == 2
    assert f"as seed {seed}; seed {seed}'s own values cannot be compared here" in str(failed.value)


# --- answers that keep state between calls ---------------------------------------------------------

def test_every_trial_calls_the_answer_three_times_in_an_order_set_by_the_seed():
    from course.checks.repeated_calls import OTHER, TRIAL, call_order
    orders = {call_order(seed) for seed in range(40)}
    assert orders == {(OTHER, TRIAL, TRIAL), (TRIAL, OTHER, TRIAL)}
    seen = []
    double.observe(lambda x: seen.append(x.clone()) or 2 * x, 3)
    trial = double.inputs(3)["x"]
    assert len(seen) == 3 and sum(torch.equal(x, trial) for x in seen) == 2


@pytest.mark.parametrize("seed", (0, 3))
def test_the_corpus_tests_can_force_either_order_whatever_the_seed(seed):
    from trial import CALL_ORDERS, calls_in_order
    trial, other = double.inputs(seed)["x"], double.inputs(other_seed(seed))["x"]
    for order in CALL_ORDERS:
        seen = []
        with calls_in_order(order):
            double.observe(lambda x: seen.append(x.clone()) or 2 * x, seed)
        assert [("trial" if torch.equal(x, trial) else "other" if torch.equal(x, other) else "?") for x in seen] \
            == list(order)


@pytest.mark.parametrize("seed", range(6))  # both orders of the calls
def test_an_answer_that_keeps_state_is_told_so(seed):
    calls = []

    def counts_its_calls(x):  # right on its first call only
        calls.append(1)
        return 2 * x if len(calls) == 1 else 2 * x + len(calls)

    result = judged(counts_its_calls, seed)
    assert result.kind == "keeps_state" and "called again with the same inputs" in result.message
    running = []

    def running_mean(x):  # a mean over every call so far: right on the first call only
        running.append(2 * x)
        return sum(running) / len(running)

    assert judged(running_mean, seed).kind in ("keeps_state", "not_doubled")
    assert judged(lambda x: 2 * x, seed).passed


def test_two_runs_that_agree_within_tolerance_are_the_same_observation():
    from course.checks.repeated_calls import same_observation
    a = {"t": torch.tensor([1.0, float("nan")]), "n": 1, "f": 0.1, "l": [None, "x"]}
    b = {"t": torch.tensor([1.0 + 1e-8, float("nan")]), "n": 1, "f": 0.1 + 1e-17, "l": [None, "x"]}
    assert same_observation(round_trip(a), round_trip(b))
    assert not same_observation(round_trip(a), round_trip({**b, "n": 2}))
    assert not same_observation(round_trip(a), round_trip({**b, "t": torch.tensor([1.1, 0.0])}))
    assert not same_observation(1, True) and not same_observation({"a": 1}, {"b": 1})


def test_a_sent_observation_without_its_two_runs_is_unreadable():
    seen = double.observe(lambda x: 2 * x, 3)
    assert double.verdict(seen["__runs__"][0], expected(3), 3).kind == "unreadable"
    assert double.verdict({"__runs__": seen["__runs__"][:1]}, expected(3), 3).kind == "unreadable"


@pytest.mark.parametrize("seed", range(6))
def test_a_result_handed_back_from_an_earlier_call_is_told_so_and_a_constant_is_not(seed):
    cache = {}

    def cached_on_shape(x):  # the first call's result for every x of that shape
        return cache.setdefault(tuple(x.shape), 2 * x)

    result = judged(cached_on_shape, seed)
    assert result.kind == "keeps_state" and "handed back an old result" in result.message
    fixed = torch.zeros(3, dtype=torch.float64)
    assert judged(lambda x: fixed, seed).kind == "not_doubled"  # a constant: its values are the mistake
    table = {"double": {"result": fixed}}  # stored values, a dict of dicts, as a cheat loads them
    assert judged(lambda x: table["double"]["result"], seed).kind == "not_doubled"


def test_the_other_call_gets_the_trials_shapes_and_dtypes_with_other_values():
    """So a cache keyed on a shape or dtype meets inputs it would wrongly match."""
    from course.checks.repeated_calls import tensors_in
    from course.exercises import backward, graph
    for exercise in [*graph.EXERCISES.values(), *backward.EXERCISES.values()]:
        for seed in range(10):
            trial, other = exercise.inputs(seed), exercise.inputs(other_seed(seed), shaped_as=seed)
            assert [(t.shape, t.dtype) for t in tensors_in(trial)] == [(t.shape, t.dtype) for t in tensors_in(other)]
            assert not any(torch.equal(a, b) for a, b in zip(tensors_in(trial), tensors_in(other))), exercise.name
            assert exercise.inputs(seed).keys() == trial.keys()


# --- whose code raised --------------------------------------------------------------------------

def _lengths_call(answer, inputs):
    return {"n": len(answer(inputs["x"]))}  # the check's own code, on what the answer returned


lengths = Exercise(_inputs, _lengths_call, _judge, ["a", "b"]).named("lengths", "toy")


def test_the_check_failing_on_what_an_answer_returned_is_not_the_answers_error():
    def forgot_return(x):
        2 * x
    result = lengths.verdict(lengths.observe(forgot_return, 3), {}, 3)
    assert result.kind == "unusable_result" and "your code raised" not in result.message
    assert "could not use what `lengths` returned (None)" in result.message and "Is a `return` missing?" in result.message


def test_an_error_in_the_students_code_names_their_line_as_a_notebook_shows_it():
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import torch\ndef doubled(x):\n    y = x * 2\n    return y + torch.ones(7)\n")
        result = judged(shell.user_ns["doubled"])
    finally:
        InteractiveShell.clear_instance()
    assert result.outcome == RAISED and result.message.startswith("your code raised RuntimeError: The size")
    assert "(line 3 of `doubled`: `return y + torch.ones(7)`)" in result.message


def test_a_not_implemented_error_from_pytorch_is_not_an_untouched_stub():
    def no_derivative(x):  # torch's own NotImplementedError, raised inside the library
        raise_inside = torch.ones(1).to_sparse()
        return raise_inside.view(-1) * x
    result = judged(no_derivative)
    assert result.outcome == RAISED and "NotImplementedError" in result.message

    def stub(x):
        raise NotImplementedError()
    assert judged(stub).outcome == NOT_ATTEMPTED


def test_an_edge_case_an_exercise_declares_is_among_the_stored_seeds():
    """What the shapes do not show (here, a first entry above 1.5, drawn about once in 8 seeds)."""
    from autograder.authoring.self_check_seeds import covering_seeds
    from course.checks.input_kinds import features

    def edges(inputs):
        return ("first entry above 1.5",) if float(inputs["x"].reshape(-1)[0]) > 1.5 else ()

    with_edge = Exercise(_mean_inputs, mean_of.call, _mean_judge, ["a", "b"], edges=edges).named("edged", "toy")
    chosen = covering_seeds(with_edge)
    assert any(("", "edge", "first entry above 1.5") in features(with_edge.inputs(s), edges) for s in chosen)
    assert not edges(with_edge.inputs(0))  # seed 0 alone does not draw it


@pytest.mark.parametrize("seed", ["7", -1, 2.0])
def test_a_seed_that_is_no_whole_number_is_said_so(seed, stored_means):
    with pytest.raises(TypeError, match="a seed is a whole number"):
        mean_of(lambda x: x.mean(), seed=seed)
