from . import submission

NAME = "output_flood_in_cell"
WHY = "the first code cell prints without end, then every answer is right"
KIND = "runaway"
EXPECT = {"loses": "all", "reason": "output limit"}


def build(release, solutions):
    notebook = submission(release, solutions)
    first = next(c for c in notebook.cells if c.cell_type == "code")
    first.source += "\nwhile True:\n    print('spam ' * 1000)"
    return notebook
