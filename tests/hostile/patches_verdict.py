from . import submission

NAME = "patches_verdict"
WHY = "course.outcome.verdict and Exercise.verdict made to say 'correct'; every answer returns None"
KIND = "cheat"
EXERCISES = ["grad_via_backward", "vjp", "grads_with_intermediate", "two_losses", "jacobian_rows", "hand_derivative"]
EXPECT = {"loses": EXERCISES, "reason": "is None", "cell": "test_vjp"}

CHEAT = '''
import course.exercise, course.outcome
from course.outcome import CORRECT, Verdict
course.outcome.verdict = lambda *args, **kwargs: Verdict(CORRECT)
course.exercise.Exercise.verdict = lambda self, *args, **kwargs: Verdict(CORRECT)
course.outcome.KERNEL_REPORTS = (CORRECT,) + course.outcome.KERNEL_REPORTS
'''


def build(release, solutions):
    answers = {name: f"def {name}(*args):\n    return None" for name in EXERCISES}
    answers["grad_via_backward"] = CHEAT + answers["grad_via_backward"]
    return submission(release, solutions, **answers)
