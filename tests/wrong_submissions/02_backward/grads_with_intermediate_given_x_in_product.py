# expect: dy_dx holds only the path through h
# A reader's answer: h**2 multiplied by the caller's x (no grad), so x.grad misses the direct term.
import torch


def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    h.retain_grad()
    y = (h**2 * x).sum()
    y.backward()
    return xc.grad, h.grad
