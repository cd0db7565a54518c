"""The real nbgrader round trip, per lesson: generate, submit, autograde, feedback.

Proves the rules that make the grading real: the source solution scores full marks, the blank
release scores 0 autograded points, and each wrong answer in tests/wrong_submissions loses the
points of the test it targets (and only those), with its message in the student's output.
"""
import html
import os

import nbformat
import pytest

from autograder import gradebook_scores

from autograder.workflow.pages import feedback_command
from autograder.course_dir import assignments
from autograder.authoring.prove import prove_assignment
from autograder.authoring.wrong_answers import build_submission, load_corpus, rounds
from conftest import ROOT

CORPUS_DIR = os.path.join(ROOT, "tests", "wrong_submissions")

BAD_INPUT_LESSON = "02_backward"


def bad_inputs(release, solutions):
    """Submissions that must each get a clear outcome without hurting anyone else's."""
    def with_cell(cell_id, code):
        return build_submission(release, {**solutions, cell_id: code})
    return {
        "broken_json": '{"cells": [ this is not a notebook',
        "hangs": with_cell("grad_via_backward", "def grad_via_backward(f, x):\n    while True:\n        pass"),
        "crashes_kernel": with_cell("vjp", "import os\ndef vjp(f, x, v):\n    os._exit(1)"),
        "patches_torch": with_cell("grad_via_backward",
                                   "torch.allclose = lambda *a, **k: True\n"
                                   "def grad_via_backward(f, x):\n    return torch.zeros_like(x)"),
        "edits_test_cell": build_submission(build_submission(release, solutions), {"test_vjp": "pass"}),
    }


_proofs = {}  # one nbgrader run per lesson, shared by the tests below


def _prove(assignment, tmp_path_factory):
    if assignment not in _proofs:
        extras = bad_inputs if assignment == BAD_INPUT_LESSON else None
        _proofs[assignment] = prove_assignment(ROOT, str(tmp_path_factory.mktemp("course")), assignment,
                                               CORPUS_DIR, extra_submissions=extras,
                                               cell_timeout=15 if extras else None)
        print("\n".join(_proofs[assignment].lines()))
    return _proofs[assignment]


@pytest.fixture(scope="module", params=assignments(ROOT))
def proof(request, tmp_path_factory):
    return _prove(request.param, tmp_path_factory)


@pytest.fixture(scope="module")
def bad_input_proof(tmp_path_factory):
    return _prove(BAD_INPUT_LESSON, tmp_path_factory)


def test_solution_scores_full_marks(proof):
    assert proof.max_code_score > 0
    assert proof.solution_score == proof.max_code_score


def test_blank_release_scores_zero(proof):
    assert proof.blank_score == 0


def test_each_wrong_answer_loses_its_points_and_says_why(proof):
    assert proof.caught, "no wrong answers were graded"
    for caught in proof.caught:
        assert caught.points_lost > 0, f"{caught.answer} did not lose the points of {caught.test_id}"
        assert caught.message_shown, f"{caught.answer}: its expected message is not in {caught.test_id}'s output"
        assert caught.other_tests_intact, f"the round with {caught.answer} cost points in other tests"


def test_feedback_shows_messages_but_no_hidden_tests(proof):
    feedback_command.generate_feedback(proof.root, proof.assignment, ["wrong_1"])
    html_path = os.path.join(proof.root, "feedback", "wrong_1", proof.assignment, f"{proof.assignment}.html")
    page = open(html_path, encoding="utf-8").read()
    assert "HIDDEN TESTS" not in page and "autograder" not in page and "respond(" not in page and "respond_each(" not in page
    first_round = rounds([a for a in load_corpus(CORPUS_DIR) if a.assignment == proof.assignment])[0]
    for answer in first_round.values():
        assert answer.said_in(html.unescape(page)), f"{answer.name}'s message is not in its feedback"


def _output_text(proof, student, cell_id):
    path = os.path.join(proof.root, "autograded", student, proof.assignment, f"{proof.assignment}.ipynb")
    cell = next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id)
    return "\n".join(str(o.get("evalue", "")) + str(o.get("text", "")) for o in cell.get("outputs", []))


def _cell_scores(proof, student):
    return gradebook_scores.cell_scores(proof.root, proof.assignment, student)


def test_bad_inputs_get_clear_outcomes_and_cost_nothing_else(bad_input_proof):
    proof = bad_input_proof
    # the broken file is reported, and every other submission was still graded and stored
    assert proof.grading_failures["broken_json"].startswith("NotJSONError: Notebook does not appear to be JSON")
    graded = {row["student"] for row in gradebook_scores.scores(proof.root)}
    assert {"solution", "blank", "hangs", "crashes_kernel", "patches_torch", "edits_test_cell"} <= graded
    assert "crashes_kernel" not in proof.grading_failures
    full = _cell_scores(proof, "solution")
    hangs = _cell_scores(proof, "hangs")
    assert hangs["test_grad_via_backward"] == 0
    assert "ran past the time limit" in _output_text(proof, "hangs", "test_grad_via_backward")
    assert all(hangs[t] == full[t] for t in full if t.startswith("test_") and t != "test_grad_via_backward")
    crashed = _cell_scores(proof, "crashes_kernel")  # only the cell that killed the kernel loses
    assert crashed["test_vjp"] == 0
    assert "kernel died" in _output_text(proof, "crashes_kernel", "test_vjp")
    assert all(crashed[t] == full[t] for t in full if t.startswith("test_") and t != "test_vjp")
    # rewriting torch in the kernel changes nothing the grader trusts: the zeros it returns are judged
    cheat = _cell_scores(proof, "patches_torch")
    assert cheat["test_grad_via_backward"] == 0
    assert "all zeros" in _output_text(proof, "patches_torch", "test_grad_via_backward")
    assert all(cheat[t] == full[t] for t in full if t.startswith("test_") and t != "test_grad_via_backward")
    assert _cell_scores(proof, "edits_test_cell") == full  # nbgrader restores the locked test cell
