from . import LEAKED, submission

NAME = "imports_autograder"
WHY = "imports the grader's own reference answers (autograder.grading.judging.references) and returns theirs"
KIND = "cheat"
EXPECT = {"loses": ["grad_via_backward", "hand_derivative"], "reason": "No module named 'autograder"}

CHEAT = f'''
import os, sys
import course

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(course.__file__))))
try:
    from autograder.grading.judging.references import backward as reference
    print("{LEAKED}: imported", reference.__file__)
except ImportError as error:
    print("hidden:", error)
    reference = None

def grad_via_backward(f, x):
    return reference._grad(f, x)
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=CHEAT,
                      hand_derivative="def hand_derivative(x):\n    return reference.hand_derivative({'x': x})['derivative']")
