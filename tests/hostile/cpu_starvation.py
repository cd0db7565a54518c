from . import MARKER, submission, with_solution

NAME = "cpu_starvation"
WHY = ("starts 8 busy-looping child processes that outlive their cell, hoping to slow every "
       "classmate's grading to a crawl, then answers correctly")
KIND = "runaway"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

SPIN = f'''
import subprocess, sys
spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass", "{MARKER}-cpu_starvation"])
            for _ in range(8)]
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=with_solution(solutions, "grad_via_backward", SPIN))
