from . import submission

NAME = "grade_cell_to_markdown"
WHY = "the test cells of a wrong vjp and a wrong jacobian_rows turned into markdown, so they never run"
KIND = "damaged_structure"
EXPECT = {"loses": ["vjp", "jacobian_rows"], "reason": "differs from PyTorch", "cell": "test_vjp"}


def build(release, solutions):
    notebook = submission(release, solutions, vjp="def vjp(f, x, v):\n    return v",
                          jacobian_rows="def jacobian_rows(f, x):\n    return None")
    for cell in notebook.cells:
        if cell.id in ("test_vjp", "test_jacobian_rows"):
            cell.cell_type = "markdown"
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
    return notebook
