from . import code_cell, submission

NAME = "uninterruptible_loop"
WHY = ("a last cell, added after every test, that swallows KeyboardInterrupt and never ends: "
       "its kernel is restarted, and every grade above it stands")
KIND = "runaway"
EXPECT = {"loses": [], "reason": "CellTimeoutError"}


def build(release, solutions):
    notebook = submission(release, solutions)
    notebook.cells.append(code_cell("import time\nwhile True:\n    try:\n        time.sleep(0.1)\n"
                                    "    except KeyboardInterrupt:\n        pass"))
    return notebook
