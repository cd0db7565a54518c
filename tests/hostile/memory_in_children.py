from . import MARKER, submission, with_solution

NAME = "memory_in_children"
WHY = ("in two_losses' cell, four child interpreters each fill 700 MB (each under the per-process "
       "cap, 2.8 GB together) and say so, then it answers correctly")
KIND = "runaway"
EXPECT = {"loses": ["two_losses", "vjp", "grads_with_intermediate", "jacobian_rows", "hand_derivative", "hvp"], "reason": "went past the memory limit"}

# Each child writes every byte it holds (so the pages are really in memory) and says so; the cell
# waits for all four, or for their end, rather than for a time a loaded machine may not keep.
HOLD = f'''
import subprocess, sys
holders = [subprocess.Popen([sys.executable, "-c",
                             "import time; x = b'1' * (700 * 2**20); print('held', flush=True); time.sleep(30)",
                             "{MARKER}-memory_in_children"], stdout=subprocess.PIPE)
           for _ in range(4)]
for holder in holders:
    holder.stdout.readline()
'''


def build(release, solutions):
    return submission(release, solutions, two_losses=with_solution(solutions, "two_losses", HOLD))
