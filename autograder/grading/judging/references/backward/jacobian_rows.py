"""jacobian_rows: each function's Jacobian at its own x."""
import torch

from course.exercises.backward.jacobian_rows import JACOBIAN_FUNCTIONS


def expected(inputs):
    return {"jacobians": [torch.autograd.functional.jacobian(f, x.detach().clone())
                          for (_, f), x in zip(JACOBIAN_FUNCTIONS, inputs["xs"], strict=True)]}
