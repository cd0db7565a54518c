"""The worked solutions of a lesson, taken from its source notebook and defined as a notebook would.

Tests use these instead of keeping their own copies, so a solution lives in one place: source/.
"""
import os
from types import SimpleNamespace

import nbformat
import torch

from autograder.authoring.wrong_answers import solution_cells
from conftest import ROOT


def source_notebook(assignment: str):
    return nbformat.read(os.path.join(ROOT, "source", assignment, f"{assignment}.ipynb"), as_version=4)


def define(code: str, name: str):
    """Run a solution cell's code as a notebook would (module __main__) and fetch its function."""
    namespace = {"__name__": "__main__", "torch": torch, "nn": torch.nn}
    exec(compile(code, f"<cell {name}>", "exec"), namespace)
    return namespace[name]


def solutions(assignment: str) -> SimpleNamespace:
    """``solutions("04_zero_grad").train_step`` is the source notebook's own train_step."""
    cells = solution_cells(source_notebook(assignment))
    return SimpleNamespace(**{name: define(code, name) for name, code in cells.items()})
