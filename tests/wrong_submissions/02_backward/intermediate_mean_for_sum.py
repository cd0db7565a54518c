# expect: y is the sum over i, not the mean
# A reader's answer: mean where the formula has a sum.
import torch
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    h.retain_grad()
    y = (h**2 * xc).mean()
    y.backward()
    return xc.grad, h.grad
