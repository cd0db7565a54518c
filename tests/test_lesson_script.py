"""Lesson scripts become nbgrader notebooks with the metadata nbgrader's own toolbar writes."""
import nbformat
import pytest

from autograder.workflow.pages.feedback import HideHiddenTests
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


NUMBERED = '''# %% [markdown]
# ### Exercise: double a number

# %% solution double
def double(x):
    ### BEGIN SOLUTION
    return 2 * x
    ### END SOLUTION

# %% [markdown]
# Some prose, then
#
# ### Exercise: triple it
'''


def test_exercise_headings_are_numbered_in_the_notebook_and_written_without_numbers():
    from autograder.authoring.lesson_writer import write
    notebook = parse(NUMBERED)
    assert notebook.cells[0].source == "### Exercise 1: double a number"
    assert notebook.cells[2].source.endswith("### Exercise 2: triple it")
    inserted = parse(NUMBERED.replace("# ### Exercise: double", "# ### Exercise: first\n\n# %% [markdown]\n"
                                                                "# ### Exercise: double"))
    assert inserted.cells[1].source == "### Exercise 2: double a number"
    assert write(notebook) == NUMBERED


def test_a_typed_exercise_number_is_refused():
    with pytest.raises(ValueError, match="exercise numbers are derived, write '### Exercise:'"):
        parse("# %% [markdown]\n# ### Exercise 3: a title\n")
