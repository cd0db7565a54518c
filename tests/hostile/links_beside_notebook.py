from . import ALL, LEAKED, code_cell, lean

NAME = "links_beside_notebook"
WHY = ("hands in the blank notebook with symbolic links beside it, to the course's source notebook (the "
       "solutions), its gradebook and a host file, and runs the solution cells of whatever it finds there")
KIND = "cheat"
EXPECT = {"loses": ALL, "reason": "no answers beside the notebook: FileNotFoundError"}
# relative links resolve in the course (submitted/<student>/<lesson>/ -> the course root), where the
# grader runs as root; the absolute one anywhere
LINKS = {"notes.txt": "../../../source/02_backward/02_backward.ipynb", "grades.txt": "../../../gradebook.db",
         "config.txt": "../../../nbgrader_config.py", "host.txt": "/etc/hostname"}

CHEAT = f'''
import json, os
for name in {sorted(LINKS)!r}:
    if os.path.exists(name):
        print("{LEAKED}: found", name, "beside the notebook")
try:
    cells = json.load(open("notes.txt"))["cells"]
except (OSError, ValueError) as error:
    print("no answers beside the notebook:", type(error).__name__)
else:
    for cell in cells:
        if cell["cell_type"] == "code" and cell["metadata"].get("nbgrader", {{}}).get("solution"):
            exec("".join(cell["source"]), globals())
'''


def build(release, solutions):
    notebook = lean(release)
    notebook.cells.append(code_cell(CHEAT))
    first = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "code")
    notebook.cells.insert(first + 1, notebook.cells.pop())
    return notebook
