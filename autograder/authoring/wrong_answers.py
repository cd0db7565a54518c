"""A corpus of plausible wrong answers, and submissions built from it.

A check that cannot fail is a defect. Each corpus file is one wrong version of one solution
cell; grading a submission that carries it must cost exactly the points of that exercise's
test. Since each test cell grades its own exercise, one submission can carry one wrong answer
for every exercise at once, which keeps the proof fast.
"""
import copy
import glob
import os
import re
from dataclasses import dataclass

import nbformat

from course.grade_ids import test_id

DEFINES = re.compile(r"^def (\w+)\(", re.MULTILINE)


@dataclass(frozen=True)
class WrongAnswer:
    assignment: str
    name: str
    replaces: str      # the solution cell's grade_id: the function the file defines
    expect: tuple      # fragments, one of which the failure message must contain (one per call order
    code: str          # where the orders give different, equally true messages)

    def said_in(self, message: str) -> bool:
        return any(fragment in message for fragment in self.expect)

    @property
    def test_id(self) -> str:
        return test_id(self.replaces)


def _headers(text: str, key: str, path: str) -> tuple:
    found = tuple(value.strip() for value in re.findall(rf"^# {key}: (.+)$", text, re.MULTILINE))
    if not found:
        raise ValueError(f"{path}: missing '# {key}: ...' header")
    return found


def _defines(text: str, path: str) -> str:
    """The exercise a wrong answer replaces is the function it defines: its name is not typed again."""
    match = DEFINES.search(text)
    if not match:
        raise ValueError(f"{path}: a wrong answer defines the exercise's function (def NAME(...))")
    return match.group(1)


def load_corpus(corpus_dir: str) -> list[WrongAnswer]:
    answers = []
    for path in sorted(glob.glob(os.path.join(corpus_dir, "*", "*.py"))):
        text = open(path, encoding="utf-8").read()
        answers.append(WrongAnswer(assignment=os.path.basename(os.path.dirname(path)),
                                   name=os.path.basename(path)[:-3], replaces=_defines(text, path),
                                   expect=_headers(text, "expect", path), code=text))
    return answers


def cells_by_id(notebook) -> dict:
    return {cell.id: cell for cell in notebook.cells}


def solution_cells(source_notebook) -> dict[str, str]:
    """grade_id -> source of every solution code cell (the markers are harmless comments)."""
    return {cell.id: cell.source for cell in source_notebook.cells
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")}


def build_submission(release_notebook, replacements: dict[str, str]):
    """The release notebook with some solution cells answered: what a student hands in."""
    notebook = copy.deepcopy(release_notebook)
    cells = cells_by_id(notebook)
    for cell_id, code in replacements.items():
        cells[cell_id].source = code
    return notebook


def rounds(answers: list[WrongAnswer]) -> list[dict[str, WrongAnswer]]:
    """Round k holds the k-th wrong answer of every exercise that has one."""
    by_cell: dict[str, list[WrongAnswer]] = {}
    for answer in answers:
        by_cell.setdefault(answer.replaces, []).append(answer)
    depth = max((len(v) for v in by_cell.values()), default=0)
    return [{cell: wrong[k] for cell, wrong in by_cell.items() if k < len(wrong)} for k in range(depth)]


def write_submission(root: str, student: str, assignment: str, notebook_name: str, notebook) -> str:
    folder = os.path.join(root, "submitted", student, assignment)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, notebook_name)
    nbformat.write(notebook, path)
    return path
