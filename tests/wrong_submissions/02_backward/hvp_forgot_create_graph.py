# expect: create_graph=True
# The first derivative has no graph of its own, so it cannot be differentiated again.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x)
    (hv,) = torch.autograd.grad((g * v).sum(), x)
    return hv
