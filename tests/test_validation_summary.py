"""What Validate says, read from an executed notebook: the core's verdict first, then what remains by section.

The notebooks here are made by hand with the outputs a run leaves (an error output whose traceback is the
self-check's rendered message, as IPython writes it); the Validate button itself, on a real run, is
tests/browser/test_validate_button.py.
"""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from nbgrader.utils import compute_checksum

from course.validation import summary


def _graded(cell, grade_id: str, points: int, solution: bool = False):
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "points": points, "solution": solution,
                                 "locked": not solution, "schema_version": 3}
    cell.metadata["nbgrader"]["checksum"] = compute_checksum(cell)
    return cell


def check(name: str, error: tuple[str, str] | None = None):
    """The check cell of exercise ``name`` after a run: passed, or stopped by ``(ename, rendered message)``."""
    cell = _graded(new_code_cell(f"check.{name}({name})"), f"test_{name}", 2)
    if error:
        ename, message = error
        cell.outputs = [new_output("error", ename=ename, evalue=message, traceback=[message])]
    return cell


def written(answer: str = "YOUR ANSWER HERE"):
    cell = _graded(new_markdown_cell("YOUR ANSWER HERE"), "why", 2, solution=True)
    cell.source = answer
    return cell


NOT_ATTEMPTED = ("NotAttempted", "\x1b[33mNotImplementedError (not attempted):\x1b[0m `vjp` still raises "
                                 "NotImplementedError. Replace the `raise NotImplementedError()` line with your code.")
WRONG = ("CheckFailed", "\x1b[31mIncorrect:\x1b[0m twice the expected gradient: .grad was not zeroed.\n"
                        "Seed 3's inputs: x = [1.0, 2.0]\n\nHint: zero .grad before backward().")


def lesson(*core, further=()):
    cells = [new_markdown_cell("# The core"), new_markdown_cell("## 1. Leaves"),
             new_markdown_cell("### Exercise 1: a leaf"), *core]
    if further:
        cells += [new_markdown_cell("# Going further (optional)"), *further]
    return new_notebook(cells=cells)


def test_a_passed_core_is_said_so_and_the_open_optional_sections_are_named():
    notebook = lesson(check("leaf"), further=[
        new_markdown_cell("## 7. `gradient=` is a vector-Jacobian product"),
        new_markdown_cell("### Exercise 3: a vector-Jacobian product"), check("vjp", NOT_ATTEMPTED),
        new_markdown_cell("### Written answer"), written(),
        new_markdown_cell("## 8. Hooks"), new_markdown_cell("### Exercise 4: a hook"), check("hook")])
    assert summary(notebook) == [
        {"text": "The core passed: 1 exercise correct.", "items": []},
        {"text": "Going further (optional): 1 section still open. Nothing there is needed for the core; each is "
                 "worth its points:",
         "items": ["7. `gradient=` is a vector-Jacobian product: Exercise 3 (`vjp`) not attempted yet, the written "
                   "answer not answered yet."]}]


def test_a_failing_core_exercise_is_named_with_the_checks_own_message_and_no_traceback():
    notebook = lesson(check("leaf", WRONG), further=[new_markdown_cell("## 5. More"), written("Because ...")])
    core, further = summary(notebook)
    assert core["text"].startswith("The core has not passed yet: 0 of 1 exercise correct. Fix each one below")
    assert core["items"] == ["Exercise 1: a leaf (`leaf`): incorrect. twice the expected gradient: .grad was not "
                             "zeroed. Seed 3's inputs: x = [1.0, 2.0] Hint: zero .grad before backward()."]
    assert further == {"text": "Going further (optional): every section done.", "items": []}  # answered: by hand


def test_an_error_that_is_not_a_verdict_is_one_line():
    notebook = lesson(check("leaf", ("NameError", "name 'leaf' is not defined")))
    notebook.cells[-1].outputs[0].traceback = ["Traceback (most recent call last)", "  File ...", "NameError: ..."]
    assert summary(notebook)[0]["items"] == ["Exercise 1: a leaf (`leaf`): stopped with an error. "
                                             "NameError: name 'leaf' is not defined"]


def test_a_verdict_without_a_message_is_its_status_alone():
    notebook = lesson(check("leaf", WRONG))
    notebook.cells[-1].outputs[0].traceback = []
    assert summary(notebook)[0]["items"] == ["Exercise 1: a leaf (`leaf`): incorrect."]


def test_a_lesson_without_parts_is_all_core():
    notebook = lesson(check("leaf"), check("other", NOT_ATTEMPTED))
    assert [block["text"].split(":")[0] for block in summary(notebook)] == ["This lesson has not passed yet"]
    assert nbformat.validate(notebook) is None
