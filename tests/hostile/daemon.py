from . import MARKER, submission, with_solution

NAME = "daemon"
WHY = "double-forks a daemon in a new session (sleeps 1000 s), then answers correctly"
KIND = "runaway"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

SPAWN = f"""
import os, sys
child = os.fork()
if child == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(1000)", "{MARKER}-daemon"])
    os._exit(0)
os.waitpid(child, 0)
"""


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", SPAWN))
