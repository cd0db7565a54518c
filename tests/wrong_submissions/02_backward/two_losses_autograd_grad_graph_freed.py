# expect: pass retain_graph=True to the first
# A reader's answer: torch.autograd.grad for each loss, the graph not kept for the second.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    (g1,) = torch.autograd.grad(h.sum(), xc)
    (g2,) = torch.autograd.grad((h**2).mean(), xc)
    return g1, g2
