from . import submission

NAME = "locked_cells_edited"
WHY = "locked test cells rewritten (print 'All tests passed', pass) and given 100 points, around wrong answers"
KIND = "damaged_structure"
EXPECT = {"loses": ["vjp", "two_losses"], "reason": "Incorrect", "cell": "test_vjp"}


def build(release, solutions):
    notebook = submission(release, solutions, vjp="def vjp(f, x, v):\n    return v",
                          two_losses="def two_losses(x):\n    return x, x")
    for cell in notebook.cells:
        if cell.id == "test_vjp":
            cell.source = 'print("All tests passed")'
            cell.metadata["nbgrader"]["points"] = 100
        elif cell.id == "test_two_losses":
            cell.source = "pass"
    return notebook
