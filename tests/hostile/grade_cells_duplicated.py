import copy

from . import submission

NAME = "grade_cells_duplicated"
WHY = "the test cell of vjp pasted twice more (copy-paste in Jupyter copies its nbgrader metadata)"
KIND = "damaged_structure"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}


def build(release, solutions):
    notebook = submission(release, solutions)
    at = next(i for i, c in enumerate(notebook.cells) if c.id == "test_vjp")
    for k in (1, 2):
        twin = copy.deepcopy(notebook.cells[at])
        twin.id = f"test_vjp_copy{k}"
        notebook.cells.insert(at + k, twin)
    return notebook
