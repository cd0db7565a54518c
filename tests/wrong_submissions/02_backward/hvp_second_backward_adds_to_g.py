# expect: x.grad.zero_() would zero g as well
# A reader's answer: backward(create_graph=True) then a second backward() without resetting .grad (returns g + Hv).
import torch
def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(create_graph=True)
    g = xc.grad
    (g * v).sum().backward()
    return xc.grad
