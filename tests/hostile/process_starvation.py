from . import MARKER, submission, with_solution

NAME = "process_starvation"
WHY = ("in jacobian_rows' cell, starts sleeping processes until the OS refuses one, hoping to leave "
       "classmates' kernels (once the same user) unable to start")
KIND = "runaway"
EXPECT = {"loses": ["jacobian_rows", "hand_derivative", "hvp"], "reason": "processes and threads"}

SPAWN = f'''
import subprocess
held = []
try:
    while len(held) < 5000:
        held.append(subprocess.Popen(["sleep", "120", "{MARKER}-process_starvation"]))
except OSError as error:
    print("refused after", len(held), "processes:", error)
'''


def build(release, solutions):
    return submission(release, solutions, jacobian_rows=with_solution(solutions, "jacobian_rows", SPAWN))
