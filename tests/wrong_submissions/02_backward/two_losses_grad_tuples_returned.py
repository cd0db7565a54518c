# expect: torch.autograd.grad returns a tuple
# A reader's answer: torch.autograd.grad's tuples returned as the gradients, never unpacked.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    g1 = torch.autograd.grad(h.sum(), xc, retain_graph=True)
    g2 = torch.autograd.grad((h**2).mean(), xc)
    return g1, g2
