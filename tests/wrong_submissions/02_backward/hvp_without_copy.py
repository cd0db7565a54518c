# expect: changed `x.requires_grad`
# Right H v, but computed on the caller's own x: "do not change x or v".
def hvp(f, x, v):
    x.requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad((g * v).sum(), x)
    return hv
