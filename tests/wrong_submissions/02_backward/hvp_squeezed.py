# expect: dimensions of size 1 are gone
# A reader's answer: H v squeezed, wrong for an x of one element.
def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(xc), xc, create_graph=True)
    (hv,) = torch.autograd.grad((g * v).sum(), xc)
    return hv.squeeze()
