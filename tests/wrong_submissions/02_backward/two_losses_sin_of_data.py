# expect: your code used .data
# A reader's answer: sin of xc.data, so the sin factor of h is cut off the graph and only the
# path through the plain factor xc carries a gradient.
import torch


def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc.data) * xc
    h.sum().backward(retain_graph=True)
    first = xc.grad.clone()
    xc.grad = None
    (h**2).mean().backward()
    return first, xc.grad
