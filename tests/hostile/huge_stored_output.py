import nbformat

from . import submission

NAME = "huge_stored_output"
WHY = "the solution with 30 MB of output saved in its cells (a print loop run before submitting)"
KIND = "broken_file"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}


def build(release, solutions):
    notebook = submission(release, solutions)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="x" * 10_000_000)]
            if len([c for c in notebook.cells if c.get("outputs")]) >= 3:
                break
    return notebook
