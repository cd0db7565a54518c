# style: torch.autograd.backward called directly, once
# A reader's answer: the function form of backward(), with the loss as its only argument.
import torch
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    h.retain_grad()
    torch.autograd.backward((h**2 * xc).sum())
    return xc.grad, h.grad
