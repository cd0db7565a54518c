from . import submission

NAME = "fake_all_tests_passed"
WHY = "prints 'All tests passed!' and shows the grader's green 'Correct' line, around two wrong answers"
KIND = "cheat"
EXPECT = {"loses": ["vjp", "two_losses"], "reason": "differs from PyTorch", "cell": "test_vjp"}

FAKE = '''
from IPython.display import HTML, display
print("All tests passed!")
display(HTML('<div style="color:#1b7837">Correct: `vjp` matches PyTorch on 3 fresh random inputs.</div>'))

def vjp(f, x, v):
    return v
'''


def build(release, solutions):
    return submission(release, solutions, vjp=FAKE, two_losses="def two_losses(x):\n    return x, x")
