# expect: loss2 = (h**2).mean() divides by them
# A reader's answer: (h**2).sum() for loss2, the gradient n times too large for x of n elements.
import torch


def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad = None
    (h**2).sum().backward()
    return g1, xc.grad
