from . import submission

NAME = "segfault"
WHY = "hand_derivative reads address 0 through ctypes: a segmentation fault when the grader calls it"
KIND = "runaway"
EXPECT = {"loses": ["hand_derivative"], "reason": "kernel died", "cell": "test_hand_derivative"}


def build(release, solutions):
    return submission(release, solutions,
                      hand_derivative="import ctypes\ndef hand_derivative(x):\n    return ctypes.string_at(0)")
