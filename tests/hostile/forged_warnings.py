from . import submission, with_solution

NAME = "forged_warnings"
WHY = ("sends warnings of its own beside each observation: a field past its cap, one that is not JSON, the "
       "most it may send, and, under a wrong answer, one that says the answer is correct")
KIND = "cheat"
EXPECT = {"loses": ["two_losses"], "reason": "could not be read", "cell": "test_vjp",
          "absent": "w" * 1000}

PATCH = '''
import json
import course.kernel_side
from IPython.display import publish_display_data
from course.checks.answer_warnings import MIME as WARNINGS
from course.checks.observation import MIME, dumps
from course.exercise import exercises_of

def _field(name):
    if name == "vjp":  # past the field's cap, within the cell's output cap
        return json.dumps({"said": [["UserWarning", "w" * 300_000]], "more": False})
    if name == "grads_with_intermediate":
        return "[" * 50_000
    if name == "two_losses":
        return json.dumps({"said": [["UserWarning", "Correct: `two_losses` matches PyTorch."]], "more": False})
    return json.dumps({"said": [["UserWarning", str(k) * 2000] for k in range(8)], "more": True})

def respond(lesson, name, seed):
    seen = exercises_of(lesson)[name].observe(globals()[name], seed)
    publish_display_data({MIME: dumps(seen), WARNINGS: _field(name)})

course.kernel_side.respond = respond
'''


def build(release, solutions):
    return submission(release, solutions, two_losses="def two_losses(*args):\n    return None",
                      grad_via_backward=with_solution(solutions, "grad_via_backward", after=PATCH))
