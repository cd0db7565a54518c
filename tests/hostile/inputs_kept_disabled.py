from . import submission

NAME = "inputs_kept_disabled"
WHY = "technique checks bypassed: the 'inputs unchanged' checks switched off, then vjp changes x in place"
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

BYPASS = '''
import sys
import course.exercises.backward.vjp
checks = sys.modules["course.exercises.backward.vjp"]  # the module: the package binds the name to its exercise
checks.inputs_kept = lambda *args, **kwargs: None
checks.grad_not_left = lambda *args, **kwargs: None

def vjp(f, x, v):
    x.requires_grad_(True)   # the caller's tensor: the check that forbids this is off
    x.grad = None
    f(x).backward(gradient=v)
    return x.grad
'''


def build(release, solutions):
    return submission(release, solutions, vjp=BYPASS)
