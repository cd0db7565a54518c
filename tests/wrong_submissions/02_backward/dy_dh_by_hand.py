# expect: dy_dh is right, but after your backward() h.grad is None
# A reader's answer: writes dy/dh by hand (2 h x) instead of reading h.grad from the backward() call.
import torch
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    y = (h**2 * xc).sum()
    y.backward()
    return xc.grad, (2 * h * xc).detach()
