"""grad_via_backward: each function's gradient at its own x."""
from course.exercises.backward.grad_via_backward import SCALAR_FUNCTIONS

from ..gradients import gradient


def expected(inputs):
    return {"grads": [gradient(f, x) for (_, f), x in zip(SCALAR_FUNCTIONS, inputs["xs"], strict=True)]}
