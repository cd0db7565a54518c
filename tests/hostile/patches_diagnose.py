from . import submission

NAME = "patches_diagnose"
WHY = "course.checks' diagnose and compare functions replaced by ones that find nothing wrong"
KIND = "cheat"
EXPECT = {"loses": ["grads_with_intermediate", "hand_derivative"], "reason": "Check each factor", "cell": "test_hand_derivative"}

CHEAT = '''
import course.checks.compare, course.checks.diagnose, course.checks.mistakes
import sys, course.exercises.backward
nothing_wrong = lambda *args, **kwargs: None
course.checks.diagnose.diagnose_gradient = nothing_wrong
course.checks.diagnose.diagnose_values = nothing_wrong
course.checks.diagnose.diagnose_tensor = nothing_wrong
course.checks.mistakes.require = nothing_wrong
course.checks.compare.close = lambda *args, **kwargs: True
for checks in (sys.modules['course.exercises.backward.' + n] for n in ('grads_with_intermediate', 'hand_derivative')):
    for name in ("diagnose_gradient", "diagnose_swapped", "diagnose_aliased_rows", "require", "close"):
        if hasattr(checks, name):
            setattr(checks, name, nothing_wrong if name != "close" else course.checks.compare.close)

def grads_with_intermediate(x):
    return x, x
'''


def build(release, solutions):
    return submission(release, solutions, grads_with_intermediate=CHEAT,
                      hand_derivative="def hand_derivative(x):\n    return torch.cos(x**2) * 2 * x")
