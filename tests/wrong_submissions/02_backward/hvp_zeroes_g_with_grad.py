# expect: x.grad.zero_() zeroed g too (they are one tensor)
# A reader's answer: follows the reset advice with zero_(): g is the same tensor as .grad, so g . v becomes 0.
import torch
def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(create_graph=True)
    g = xc.grad
    xc.grad.zero_()
    (g * v).sum().backward()
    return xc.grad
