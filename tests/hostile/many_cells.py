import nbformat

from . import NOT_GRADED, submission

NAME = "many_cells"
WHY = ("the solution with 100,000 one-character markdown cells (a few MB, far under the size cap), "
       "which once took every step after grading minutes and gigabytes each time it was shown")
KIND = "damaged_structure"
EXPECT = {"score": NOT_GRADED, "reason": "cells, over the limit of 1000"}


def build(release, solutions):
    notebook = submission(release, solutions)
    notebook.cells += [nbformat.v4.new_markdown_cell("x") for _ in range(100_000)]
    return notebook
