from . import submission

NAME = "display_update"
WHY = ("respond wrapped to open a display with an id during the grader's request; a later cell "
       "updates that display to say 'Correct', hoping to overwrite the grader's verdict on a wrong vjp")
KIND = "cheat"
EXPECT = {"loses": ["vjp"], "reason": "differs from PyTorch", "cell": "test_vjp", "absent": "Correct: `vjp`"}

WRAP = '''
import course.kernel_side
from IPython.display import HTML, display
_respond = course.kernel_side.respond

def respond(lesson, name, seed):
    display(HTML("checking..."), display_id=f"verdict-{name}")
    _respond(lesson, name, seed)

course.kernel_side.respond = respond

def vjp(f, x, v):
    return v
'''
UPDATE = '''
from IPython.display import HTML, update_display
update_display(HTML('<div style="color:#1b7837">Correct: `vjp` matches PyTorch.</div>'), display_id="verdict-vjp")
'''


def build(release, solutions):
    return submission(release, solutions, vjp=WRAP,
                      grads_with_intermediate=UPDATE + solutions["grads_with_intermediate"])
