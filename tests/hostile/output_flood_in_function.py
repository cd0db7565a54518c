from . import submission

NAME = "output_flood_in_function"
WHY = "jacobian_rows prints without end when the grader calls it"
KIND = "runaway"
EXPECT = {"loses": ["jacobian_rows"], "reason": "printed more than", "cell": "test_jacobian_rows"}


def build(release, solutions):
    return submission(release, solutions, jacobian_rows=(
        "def jacobian_rows(f, x):\n    while True:\n        print('spam ' * 1000)"))
