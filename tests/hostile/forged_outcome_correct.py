from . import ALL, submission, with_solution

NAME = "forged_outcome_correct"
WHY = 'course.kernel_side.respond replaced by one that sends {"__outcome__": "correct"}'
KIND = "cheat"
EXPECT = {"loses": ALL, "reason": "an outcome of its own", "cell": "test_vjp"}

CHEAT = '''
import json
import course.kernel_side
from IPython.display import publish_display_data
from course.checks.observation import MIME

course.kernel_side.respond = lambda lesson, name, seed: publish_display_data(
    {MIME: json.dumps({"__outcome__": "correct", "message": "", "kind": "correct"})})
'''


def build(release, solutions):
    return submission(release, solutions,
                      grad_via_backward=with_solution(solutions, "grad_via_backward", before=CHEAT))
