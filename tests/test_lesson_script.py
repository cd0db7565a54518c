"""Lesson scripts become nbgrader notebooks with the metadata nbgrader's own toolbar writes."""
import nbformat
import pytest

from autograder.feedback import HideHiddenTests
from autograder.authoring.lesson_script import parse

SCRIPT = '''# %% [markdown]
# # Title
#
# Some *prose*.

# %%
import torch

# %% solution double
def double(x):
    ### BEGIN SOLUTION
    return 2 * x
    ### END SOLUTION

# %% check double points=2

# %% [markdown] answer why points=1.5
# Because.
'''


def test_cells_roles_and_metadata():
    nb = parse(SCRIPT)
    assert [c.cell_type for c in nb.cells] == ["markdown", "code", "code", "code", "markdown"]
    assert nb.cells[0].source == "# Title\n\nSome *prose*."
    solution, test, answer = (c.metadata["nbgrader"] for c in nb.cells[2:])
    assert solution == {"grade": False, "grade_id": "double", "locked": False, "schema_version": 3,
                        "solution": True, "task": False}
    assert test["grade"] and test["locked"] and not test["solution"] and test["points"] == 2
    assert answer["grade"] and answer["solution"] and answer["points"] == 1.5
    assert [c.id for c in nb.cells[2:]] == ["double", "test_double", "why"]
    nbformat.validate(nb)


@pytest.mark.parametrize("bad, message", [
    ("# %% check t\n", "points=N"),
    ("# %% check t points=1\ncheck.t(t)\n", "leave its body empty"),
    ("# %% answer a points=1\nx\n", "must be a \\[markdown\\] cell"),
    ("# %% bogus header\n", "cannot read cell header"),
    ("text first\n# %%\n", "before the first"),
])
def test_bad_scripts_are_refused_with_the_line(bad, message):
    with pytest.raises(ValueError, match=message):
        parse(bad)


def test_feedback_drops_hidden_tests_and_their_tracebacks():
    nb = parse(SCRIPT)
    test = nb.cells[3]
    test.outputs = [nbformat.v4.new_output("error", ename="GradingFailure", evalue="twice the gradient",
                                           traceback=["----> 3 from autograder import grade", "hidden"])]
    HideHiddenTests().preprocess(nb, {})
    assert test.source == "check.double(double)"
    assert test.outputs[0]["traceback"] == ["GradingFailure: twice the gradient"]
