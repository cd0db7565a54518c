# expect: dy_dh is right, but after your backward() h.grad is None
# A reader's answer: one backward(), the right numbers, but dy_dh written by hand (2 h x) instead of
# read from h.grad: breaks only the rule that dy_dh is what h.grad holds.
import torch


def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    y = (h**2 * xc).sum()
    y.backward()
    return xc.grad, (2 * h * xc).detach()
