# expect: H times a vector of ones
# Following "reduce with .sum()" literally: the gradient of g.sum() is H times ones, v is never used.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad(g.sum(), x)
    return hv
