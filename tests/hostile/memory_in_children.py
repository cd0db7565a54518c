from . import MARKER, submission, with_solution

NAME = "memory_in_children"
WHY = ("in two_losses' cell, four child interpreters each hold 700 MB (each under the per-process "
       "cap, 2.8 GB together), then it answers correctly")
KIND = "runaway"
EXPECT = {"loses": ["two_losses", "vjp", "grads_with_intermediate", "jacobian_rows", "hand_derivative", "hvp"], "reason": "went past the memory limit"}

HOLD = f'''
import subprocess, sys, time
holders = [subprocess.Popen([sys.executable, "-c",
                             "import time; x = bytearray(700 * 2**20); time.sleep(30)", "{MARKER}-memory_in_children"])
           for _ in range(4)]
time.sleep(8)
'''


def build(release, solutions):
    return submission(release, solutions, two_losses=with_solution(solutions, "two_losses", HOLD))
