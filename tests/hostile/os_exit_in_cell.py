from . import submission, with_solution

NAME = "os_exit_in_cell"
WHY = "os._exit(0) right after defining jacobian_rows: the kernel dies in a solution cell"
KIND = "runaway"
EXPECT = {"loses": ["jacobian_rows"], "reason": "kernel died"}


def build(release, solutions):
    return submission(release, solutions,
                      jacobian_rows=with_solution(solutions, "jacobian_rows", after="import os\nos._exit(0)"))
