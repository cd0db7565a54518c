from . import submission, with_solution

NAME = "sys_exit"
WHY = "sys.exit() after defining vjp, and inside grads_with_intermediate"
KIND = "runaway"
EXPECT = {"loses": ["grads_with_intermediate"], "reason": "no result came back",
          "cell": "test_grads_with_intermediate"}


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", after="import sys\nsys.exit(0)"),
                      grads_with_intermediate="import sys\ndef grads_with_intermediate(x):\n    sys.exit(1)")
