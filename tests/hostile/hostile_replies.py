from . import submission, with_solution

NAME = "hostile_replies"
WHY = ("sends the grader what once crashed it: a 5000-digit integer, numbers past float range in an "
       "answer's fields, JSON nested 100000 deep, and a widget comm with a malformed state")
KIND = "cheat"
EXPECT = {"loses": ["vjp", "grads_with_intermediate", "two_losses"], "reason": "could not be read", "cell": "test_vjp"}

PATCH = '''
import json
import course.kernel_side
from course.checks.observation import MIME, dumps
from course.exercise import exercises_of
from IPython.display import publish_display_data
from ipykernel.comm import Comm

Comm(target_name="jupyter.widget", data={"state": {"no_model_module": True}})  # KeyError in nbclient, once
_respond = course.kernel_side.respond

def _huge(value):
    if isinstance(value, dict):
        return {k: _huge(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_huge(v) for v in value]
    return 10**400 if isinstance(value, (int, float)) and not isinstance(value, bool) else value

def respond(lesson, name, seed):
    if name == "vjp":
        publish_display_data({MIME: '{"vjps": 1' + "0" * 5000 + "}"})
    elif name == "grads_with_intermediate":
        seen = json.loads(dumps(exercises_of(lesson)[name].observe(globals()[name], seed)))
        publish_display_data({MIME: json.dumps(_huge(seen))})
    elif name == "two_losses":
        publish_display_data({MIME: "[" * 100000 + "]" * 100000})
    else:
        _respond(lesson, name, seed)

course.kernel_side.respond = respond
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=with_solution(solutions, "grad_via_backward", after=PATCH))
