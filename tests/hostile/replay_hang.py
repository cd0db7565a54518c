from . import submission, with_solution

NAME = "replay_hang"
WHY = ("grad_via_backward's cell swallows every interrupt, but only when re-run after a kernel death; "
       "jacobian_rows' answer kills the kernel, so each replayed cell would wait out a full timeout")
KIND = "runaway"
EXPECT = {"loses": ["jacobian_rows", "hand_derivative", "hvp"], "reason": "re-running the cells above"}

HANG_ON_REPLAY = '''
import time
if get_ipython().kernel.get_parent()["content"].get("silent"):  # a replay runs silently
    while True:
        try:
            time.sleep(0.1)
        except KeyboardInterrupt:
            pass
'''
DIES = '''
import os

def jacobian_rows(f, x):
    os._exit(1)
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=with_solution(solutions, "grad_via_backward", HANG_ON_REPLAY),
                      jacobian_rows=DIES)
