# expect: no gradient came back through h = tanh(x)
# A reader's answer: h detached into a leaf of its own, so x.grad holds only the direct term h**2.
import torch


def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc).detach().requires_grad_(True)
    y = (h**2 * xc).sum()
    y.backward()
    return xc.grad, h.grad
