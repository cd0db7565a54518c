from . import MARKER, submission, with_solution

NAME = "child_process"
WHY = "starts a process that sleeps for 1000 s and a thread that never ends, then answers correctly"
KIND = "runaway"
EXPECT = {"loses": [], "reason": "Correct: `grad_via_backward`"}

SPAWN = f"""
import subprocess, sys, threading, time
sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", "{MARKER}-popen"])
threading.Thread(target=time.sleep, args=(1000,), daemon=False).start()
"""


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=with_solution(solutions, "grad_via_backward", SPAWN))
