from . import NOT_GRADED, submission

NAME = "locked_cell_flags_flipped"
WHY = "a test cell's nbgrader flags changed (grade and locked off) so it no longer counts as a test"
KIND = "damaged_structure"
EXPECT = {"score": NOT_GRADED, "reason": "Inconsistent checksums for cell test_two_losses"}


def build(release, solutions):
    notebook = submission(release, solutions, two_losses="def two_losses(x):\n    return x, x")
    for cell in notebook.cells:
        if cell.id == "test_two_losses":
            cell.metadata["nbgrader"].update(grade=False, locked=False)
            cell.source = "pass"
    return notebook
