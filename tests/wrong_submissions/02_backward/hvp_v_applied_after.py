# expect: v was applied after the second differentiation instead of inside it
# v multiplies the gradient of g.sum(), (H times ones) * v, instead of weighting g before it.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    return torch.autograd.grad(g.sum(), x)[0] * v
