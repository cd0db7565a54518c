import json

import nbformat

from . import submission

NAME = "duplicate_cell_ids"
WHY = "every cell given the id of the vjp test cell, and a wrong grad_via_backward"
KIND = "damaged_structure"
EXPECT = {"loses": ["grad_via_backward"],  # the ids are new
          "reason": "the gradient of the sum of sin(x) * x**2, at a 0-d x (a single number)"}


def build(release, solutions):
    notebook = submission(release, solutions, grad_via_backward="def grad_via_backward(f, x):\n    return x")
    raw = json.loads(nbformat.writes(notebook))
    for cell in raw["cells"]:
        cell["id"] = "test_vjp"
    return json.dumps(raw)  # raw text: nbformat.write would repair the ids before nbgrader sees them
