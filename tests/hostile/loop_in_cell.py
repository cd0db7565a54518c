from . import submission, with_solution

NAME = "loop_in_cell"
WHY = "an endless loop at the top of the vjp cell, before the function is defined"
KIND = "runaway"
EXPECT = {"loses": ["vjp"], "reason": "not defined as a function", "cell": "test_vjp"}


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", before="while True:\n    pass"))
