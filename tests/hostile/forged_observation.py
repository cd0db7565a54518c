from . import ALL, submission, with_solution

NAME = "forged_observation"
WHY = "course.kernel_side.respond replaced: it sends well-formed results (zeros, the right call counts)"
KIND = "cheat"
EXPECT = {"loses": ALL, "reason": "all zeros", "cell": "test_grad_via_backward"}

CHEAT = '''
import torch
import course.kernel_side
from IPython.display import publish_display_data
from course.checks.observation import MIME, dumps
from course.exercise import exercises_of

def forged_respond(lesson, name, seed):
    exercise = exercises_of(lesson)[name]
    zeros = lambda *args: torch.zeros_like(next(a for a in args if isinstance(a, torch.Tensor)))  # shaped as x
    seen = exercise.observe(zeros, seed)
    if isinstance(seen, dict) and "__outcome__" not in seen:
        for key in ("backward_calls", "calls"):
            if isinstance(seen.get(key), list):
                seen[key] = [1] * len(seen[key])
            elif key in seen:
                seen[key] = 1
    publish_display_data({MIME: dumps(seen)})

course.kernel_side.respond = forged_respond
'''


def build(release, solutions):
    return submission(release, solutions,
                      grad_via_backward=with_solution(solutions, "grad_via_backward", before=CHEAT))
