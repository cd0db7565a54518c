# expect: both 1/
# A reader's answer: a mean where y is a sum, so both gradients are divided by the number of elements.
import torch


def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    h.retain_grad()
    y = (h**2 * xc).mean()
    y.backward()
    return xc.grad, h.grad
