from . import submission

NAME = "inputs_kept_disabled"
WHY = "technique check bypassed: the 'inputs unchanged' check switched off, then vjp changes x in place"
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

BYPASS = '''
import sys, course.exercises.backward
sys.modules['course.exercises.backward.vjp'].inputs_kept = lambda *args, **kwargs: None  # the module, not the exercise

def vjp(f, x, v):
    x.requires_grad_(True)   # the caller's tensor: the check that forbids this is off
    x.grad = None
    f(x).backward(gradient=v)
    return x.grad
'''


def build(release, solutions):
    return submission(release, solutions, vjp=BYPASS)
