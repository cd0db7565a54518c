from . import code_cell, submission

NAME = "memory_bomb_in_cell"
WHY = "a last cell, added after every test, that allocates 64 MB blocks until memory runs out"
KIND = "runaway"
EXPECT = {"loses": [], "reason": "went past the memory limit"}


def build(release, solutions):
    notebook = submission(release, solutions)
    notebook.cells.append(code_cell("hog = []\nwhile True:\n    hog.append(bytearray(64 * 2**20))"))
    return notebook
