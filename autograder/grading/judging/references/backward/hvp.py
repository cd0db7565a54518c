"""hvp: each function's Hessian-vector product at its own x, and what the likeliest slips give instead."""
import torch

from course.exercises.backward.hvp import HVP_FUNCTIONS

from ..gradients import gradient


def expected(inputs):
    """H v from PyTorch's own hvp(), and what wrong answers may return: the first derivative, and H
    times a vector of ones (the second differentiation from g.sum(), v left out)."""
    hvps, grads, ones = [], [], []
    for (_, f), x, v in zip(HVP_FUNCTIONS, inputs["xs"], inputs["vs"], strict=True):
        x = x.detach().clone()
        hvps.append(torch.autograd.functional.hvp(f, x, v)[1])
        grads.append(gradient(f, x))
        ones.append(torch.autograd.functional.hvp(f, x, torch.ones_like(v))[1])
    return {"hvps": hvps, "grads": grads, "h_ones": ones}
