from . import submission

NAME = "inputs_kept_disabled"
WHY = "technique checks bypassed: the 'inputs unchanged' checks switched off, then vjp changes x in place"
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

BYPASS = '''
import course.exercises.backward.vjp
course.exercises.backward.vjp.inputs_kept = lambda *args, **kwargs: None
course.exercises.backward.vjp.grad_not_left = lambda *args, **kwargs: None

def vjp(f, x, v):
    x.requires_grad_(True)   # the caller's tensor: the check that forbids this is off
    x.grad = None
    f(x).backward(gradient=v)
    return x.grad
'''


def build(release, solutions):
    return submission(release, solutions, vjp=BYPASS)
