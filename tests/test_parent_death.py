"""A fenced process ends with its parent even when the parent died first (``kernels.parent_death``).

The window is made wide on purpose: the child sleeps between its fork and ``die_with``, and its
parent exits in that time, as a zygote does when the grade command is killed outright.
"""
import os
import time

import pytest

from autograder.grading.kernels import parent_death


def _child_outcome(handed: bool, parent_lives: float) -> bytes:
    """What a child writes: b"survived" if it ran on a second after asking to die with its parent."""
    read, write = os.pipe()
    middle = os.fork()
    if middle == 0:  # the parent: hands its child a pidfd of itself, then exits after parent_lives
        os.close(read)
        parent = parent_death.handle()
        if os.fork() == 0:
            time.sleep(0.5)  # the window between fork and the call
            parent_death.die_with(parent if handed else None)
            time.sleep(1.0)
            os.write(write, b"survived")
            os._exit(0)
        time.sleep(parent_lives)
        os._exit(0)
    os.close(write)
    os.waitpid(middle, 0)
    with os.fdopen(read, "rb") as child:  # end of file once the child has ended, however it ended
        return child.read()


@pytest.mark.parametrize("parent_lives", [0.0, 0.8], ids=["parent-dead-before-the-call", "parent-dies-after"])
def test_a_child_ends_with_its_parent_whenever_the_parent_dies(parent_lives):
    assert _child_outcome(handed=True, parent_lives=parent_lives) == b""


def test_the_signal_alone_misses_a_parent_that_died_first():
    """Why the pidfd is handed over: PR_SET_PDEATHSIG set after the parent's death never fires."""
    assert _child_outcome(handed=False, parent_lives=0.0) == b"survived"
