"""What Validate tells a student: whether the lesson's core passed, and which optional sections remain.

nbgrader's Validator lists every graded cell that did not get its points as "The following cell
failed", the optional sections' untouched ones too, and never says that the core passed.
``CourseValidator`` runs nbgrader's validation unchanged and adds ``summary`` to its results: a few
paragraphs in plain words, each with its list, read from the executed notebook by ``summary``.
A failing core exercise is named with what to do; the self-check's own message says why, never a
traceback. The Validate button (jupyter-config/labextensions/) shows it; the server's side is
course/validate_handler.py.
"""
import re

from nbconvert.preprocessors import Preprocessor
from nbgrader import utils
from nbgrader.validator import Validator
from traitlets import List

from .grade_ids import exercise_of_test
from .lesson_parts import CORE, is_graded, places

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CORRECT, INCORRECT, NOT_ATTEMPTED, RAISED = "correct", "incorrect", "not attempted yet", "stopped with an error"
ANSWERED, UNANSWERED = "answered (graded by hand)", "not answered yet"
MESSAGE_LINES = 4  # of a self-check's message: its verdict and why; the rest is in the notebook


def _status(cell) -> tuple[str, str]:
    """A graded cell's status after the run, and the self-check's message (plain text) when it did not pass."""
    score, points = utils.determine_grade(cell)
    if cell.cell_type != "code":
        return (UNANSWERED if score == 0 else ANSWERED), ""
    if score == points:
        return CORRECT, ""
    errors = [output for output in cell.outputs if output.output_type == "error"]
    if not errors:
        return INCORRECT, "the check wrote to its error stream: read its output in the notebook."
    error = errors[0]
    if error.get("ename") == "NotAttempted":
        status = NOT_ATTEMPTED
    elif error.get("ename") == "CheckFailed":
        status = INCORRECT
    else:  # not one of the self-check's verdicts: what stopped the check cell, without its traceback
        return RAISED, f"{error.get('ename', 'Error')}: {ANSI.sub('', str(error.get('evalue', '')))}"
    lines = ANSI.sub("", "\n".join(error.get("traceback", []))).strip().splitlines() or [""]
    lines[0] = lines[0].split(":", 1)[-1]  # "Incorrect: why" -> "why": the status says it already
    return status, " ".join(line.strip() for line in lines[:MESSAGE_LINES] if line.strip())


def _name(cell, place, within_section: bool = False) -> str:
    """How the student finds a graded cell: its heading and function, or the written answer's section;
    ``within_section``: shorter, under its section's name."""
    exercise = exercise_of_test(cell.metadata["nbgrader"].get("grade_id", ""))
    if cell.cell_type != "code":
        return "the written answer" if within_section or not place.section else \
            f"the written answer in {place.section}"
    title = place.heading if place.heading.startswith("Exercise") else ("" if within_section else place.section)
    if within_section:
        title = title.split(":", 1)[0]
    return f"{title} (`{exercise}`)" if title else f"`{exercise}`"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def summary(notebook) -> list[dict]:
    """``[{"text": paragraph, "items": [line, ...]}, ...]`` for an executed notebook: the core first,
    then what remains of going further, by section."""
    graded = [(cell, place, *_status(cell)) for cell, place in zip(notebook.cells, places(notebook.cells))
              if is_graded(cell)]
    core = [entry for entry in graded if entry[1].part == CORE]
    further = [entry for entry in graded if entry[1].part != CORE]
    has_parts = bool(further)
    blocks = []

    exercises = [entry for entry in core if entry[0].cell_type == "code"]
    done = sum(entry[2] == CORRECT for entry in exercises)
    what = "The core" if has_parts else "This lesson"
    if done == len(exercises):
        blocks.append({"text": f"{what} passed: {'all ' if done > 1 else ''}{_count(done, 'exercise')} correct.",
                       "items": []})
    else:
        blocks.append({"text": f"{what} has not passed yet: {done} of {_count(len(exercises), 'exercise')} correct. "
                               "Fix each one below in its cell, run it and its check again, then Validate:",
                       "items": [f"{_name(cell, place)}: {status}. {message}".strip()
                                 for cell, place, status, message in exercises if status != CORRECT]})
    written = [entry for entry in core if entry[0].cell_type != "code" and entry[2] != ANSWERED]
    if written:
        blocks.append({"text": "Still to write in the core (graded by hand):",
                       "items": [_name(cell, place) for cell, place, _, _ in written]})

    if has_parts:
        open_ = [entry for entry in further if entry[2] not in (CORRECT, ANSWERED)]
        if not open_:
            blocks.append({"text": "Going further (optional): every section done.", "items": []})
        else:
            sections: dict[str, list[str]] = {}
            for cell, place, status, _ in open_:
                sections.setdefault(place.section or "Going further", []).append(
                    f"{_name(cell, place, within_section=True)} {status}")
            blocks.append({"text": f"Going further (optional): {_count(len(sections), 'section')} still open. "
                                   "Nothing there is needed for the core; each is worth its points:",
                           "items": [f"{section}: {', '.join(items)}." for section, items in sections.items()]})
    return blocks


class KeepExecuted(Preprocessor):
    """The last step of Validate's run: hands the executed notebook to the validator running the steps."""

    def preprocess(self, nb, resources):
        self.parent.executed = nb
        return nb, resources


class CourseValidator(Validator):
    """nbgrader's Validator, whose results also carry ``summary``: the core and the optional parts in plain words."""

    preprocessors = List([*Validator.class_traits()["preprocessors"].default(), KeepExecuted])

    def validate(self, filename: str) -> dict:
        results = super().validate(filename)
        if "type_changed" in results or "changed" in results:
            cells = results.get("type_changed", []) + results.get("changed", [])
            results["summary"] = [{
                "text": "Some cells that must stay as they were given have been changed, so Validate cannot say "
                        "whether the core passed. Undo those changes (or fetch the lesson again and copy your "
                        "answers over):",
                "items": [(cell["source"].splitlines() or [""])[0] for cell in cells]}]
        else:
            results["summary"] = summary(self.executed)
        return results
