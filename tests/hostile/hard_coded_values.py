from . import submission

NAME = "hard_coded_values"
WHY = "returns the self-check's stored expected values (and a value printed in the lesson) whatever the input"
KIND = "cheat"
EXPECT = {"loses": ["grad_via_backward", "grads_with_intermediate", "hand_derivative"], "reason": "your derivative",
          "cell": "test_hand_derivative"}

CHEAT = '''
import json, os
import torch
import course
from course.checks.observation import decode

with open(os.path.join(os.path.dirname(course.__file__), "exercises", "expected", "backward.json")) as handle:
    STORED = {name: decode(by_seed["0"]) for name, by_seed in json.load(handle).items()}

def grad_via_backward(f, x):
    return torch.tensor(6.0)   # x.grad for y = x**2 at x = 3, as the lesson prints it
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=CHEAT,
                      grads_with_intermediate=("def grads_with_intermediate(x):\n"
                                               "    return STORED['grads_with_intermediate']['dy_dx'], "
                                               "STORED['grads_with_intermediate']['dy_dh']"),
                      hand_derivative="def hand_derivative(x):\n    return STORED['hand_derivative']['derivative']")
