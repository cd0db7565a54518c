"""The same answer gets the same verdict every run: nothing it is judged by depends on object ids,
the allocator's reuse of them, or what the kernel ran before.

Each answer that keeps state between calls (the corpus's, found by their module-level state, globals,
mutable defaults and id() calls, and two a fresh reader's verdict moved with: a memo keyed on id()
and hook handles kept by id(model)) is judged 20 times, by the grader and by the self-check: 10 times
in a fresh kernel (a new definition) and 10 times over in one kernel, some runs after a demo call on
inputs then freed, as a student's own cell would leave, with garbage made and freed in between.
"""
import ast
import os

import pytest
import torch

from autograder.authoring.wrong_answers import load_corpus
from conftest import ROOT
from course.checks.object_identity import keyed_on_identity, identities
from course.outcome import CheckFailed
from lesson_solutions import define
from trial import exercise, graded

RUNS = 20

ID_KEYED_MEMO = '''
_memo = {}


def vjp(f, x, v):
    key = (id(f), id(x), id(v))
    if key not in _memo:
        leaf = x.detach().clone().requires_grad_(True)
        f(leaf).backward(gradient=v)
        _memo[key] = leaf.grad
    return _memo[key]
'''

HANDLES_BY_MODEL_ID = '''
_handles = {}


def clip_with_hook(model, max_value):
    for handle in _handles.pop(id(model), []):
        handle.remove()
    _handles[id(model)] = [p.register_hook(lambda grad: grad.clamp(-max_value, max_value))
                           for p in model.parameters()]
    return _handles[id(model)]
'''


def keeps_state(code: str) -> bool:
    """Module-level state, a global or nonlocal, a mutable default argument or an id() call."""
    tree = ast.parse(code)
    if any(isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) for node in tree.body):
        return True
    return any(isinstance(node, (ast.Global, ast.Nonlocal))
               or (isinstance(node, ast.FunctionDef)
                   and any(isinstance(d, (ast.Dict, ast.List, ast.Set, ast.Call)) for d in node.args.defaults))
               or (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "id")
               for node in ast.walk(tree))


STATEFUL = [(a.assignment, a.name, a.replaces, a.code) for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))
            if keeps_state(a.code)]
STATEFUL += [("02_backward", "memo_keyed_on_id", "vjp", ID_KEYED_MEMO),
             ("04_zero_grad", "handles_kept_by_model_id", "clip_with_hook", HANDLES_BY_MODEL_ID)]


def _self_check(assignment, name, answer) -> tuple:
    try:
        exercise(assignment, name)(answer)
    except CheckFailed as failed:
        return ("incorrect", str(failed))
    return ("correct", "")


def _demo_call(assignment, name, answer, seed):
    """What a student's own cell leaves behind: a call on inputs that are then freed. An exercise whose
    check calls the answer once per case (``cases``) is called as a student would: on one case."""
    inputs = exercise(assignment, name).inputs(seed)
    arguments = [inputs["cases"][0]] if list(inputs) == ["cases"] else list(inputs.values())
    try:
        answer(*arguments)
    except Exception:  # noqa: BLE001  (a demo call with the check's inputs in order may not fit)
        pass
    garbage = [torch.zeros(3) for _ in range(50)] + [torch.nn.Linear(2, 2) for _ in range(5)]
    del garbage  # freed at once: their ids are free for what comes next


def test_the_state_keeping_corpus_is_found():
    names = {name for _, name, _, _ in STATEFUL}
    assert len(STATEFUL) >= 20 and {"evaluate_cached_by_model", "memo_keyed_on_id"} <= names


@pytest.mark.parametrize("assignment, name, replaces, code", STATEFUL, ids=[f"{a}/{n}" for a, n, _, _ in STATEFUL])
def test_a_state_keeping_answer_gets_one_verdict_every_run(assignment, name, replaces, code, capsys):
    grader, self_check = set(), set()
    kept = define(code, replaces)  # one kernel, its check cells run again and again
    for run in range(RUNS):
        answer = define(code, replaces) if run % 2 else kept
        if run % 3 == 0:
            _demo_call(assignment, replaces, answer, 1000 + run)
        result = graded(assignment, replaces, answer)
        grader.add((result.outcome, result.kind, result.message))
        self_check.add(_self_check(assignment, replaces, answer))
    capsys.readouterr()
    assert len(grader) == 1, grader
    assert len(self_check) == 1, self_check
    assert not next(iter(grader))[0] == "correct", "a wrong answer of the corpus passed"


def test_a_dict_keyed_on_an_arguments_identity_is_found_whether_or_not_it_was_hit():
    x, model = torch.ones(2), torch.nn.Linear(2, 1)
    found = identities({"x": x, "model": model})
    for key in (id(x), (id(model), (2,)), x.data_ptr(), x, model.weight):
        table = {key: 1}
        assert keyed_on_identity(lambda: table, found), key
    for key in ("x", (2,), 3, 12345):
        table = {key: 1}
        assert not keyed_on_identity(lambda: table, found), key
