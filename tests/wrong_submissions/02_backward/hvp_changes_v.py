# expect: `v.requires_grad`
# Right values, but it switches on requires_grad of the caller's v on the way:
# the statement says not to change x or v.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad((g * v.requires_grad_(True)).sum(), x)
    return hv
