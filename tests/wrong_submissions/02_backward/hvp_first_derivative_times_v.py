# expect: the second differentiation is missing
# A reader's answer: weights the first derivative by v and stops there, without differentiating again.
import torch


def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(create_graph=True)
    g = xc.grad
    return g * v
