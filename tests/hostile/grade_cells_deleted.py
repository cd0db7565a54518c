from . import submission

NAME = "grade_cells_deleted"
WHY = "the test cells of a wrong vjp and of a right two_losses deleted, hoping a missing test cannot fail"
KIND = "damaged_structure"
EXPECT = {"loses": ["vjp"], "reason": "differs from PyTorch", "cell": "test_vjp"}


def build(release, solutions):
    notebook = submission(release, solutions, vjp="def vjp(f, x, v):\n    return x")
    notebook.cells = [c for c in notebook.cells if c.id not in ("test_vjp", "test_two_losses")]
    return notebook
