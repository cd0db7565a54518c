from . import submission

NAME = "loop_in_function"
WHY = "hand_derivative never returns: the loop runs only when the grader calls it"
KIND = "runaway"
EXPECT = {"loses": ["hand_derivative"], "reason": "ran past the time limit", "cell": "test_hand_derivative"}


def build(release, solutions):
    return submission(release, solutions, hand_derivative="def hand_derivative(x):\n    while True:\n        pass")
