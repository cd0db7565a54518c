# expect: v only weights the outputs, and nothing is differentiated with respect to it
# A reader's answer: requires_grad switched on for the caller's v on the way to the right H v.
import torch


def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    v.requires_grad_(True)
    (g,) = torch.autograd.grad(f(xc), xc, create_graph=True)
    (hv,) = torch.autograd.grad((g * v).sum(), xc)
    return hv
