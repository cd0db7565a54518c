# expect: torch.autograd.grad returns a tuple
# A reader's answer: g kept as the tuple torch.autograd.grad returns; g * v then repeats a tuple instead of weighting g.
def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    g = torch.autograd.grad(f(xc), xc, create_graph=True)
    (g * v).sum().backward()
    return xc.grad
