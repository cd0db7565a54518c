"""vjp: v^T J for each vector function at its own x, and the gradient of its sum (the likeliest slip)."""
import torch

from course.checks.technique import oracle_leaf
from course.exercises.backward.vjp import VECTOR_FUNCTIONS


def expected(inputs):
    vjps, sum_grads = [], []
    for (_, f), x, v in zip(VECTOR_FUNCTIONS, inputs["xs"], inputs["vs"], strict=True):
        x0 = oracle_leaf(x)
        y0 = f(x0)
        vjps.append(torch.autograd.grad(y0, x0, grad_outputs=v, retain_graph=True)[0])
        sum_grads.append(torch.autograd.grad(y0.sum(), x0)[0])
    return {"vjps": vjps, "sum_grads": sum_grads}
