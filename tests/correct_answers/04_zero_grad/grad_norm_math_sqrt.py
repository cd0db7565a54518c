# style: Python numbers throughout: math.sqrt of a sum of floats (0.0 for an empty sum)
import math


def grad_norm(model):
    total = 0.0
    for p in model.parameters():
        if p.grad is not None:
            total += float(p.grad.pow(2).sum())
    return math.sqrt(total)
