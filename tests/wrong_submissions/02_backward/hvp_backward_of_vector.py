# expect: gradient=
# The second differentiation calls backward() on the vector g itself, with no weights.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    g.backward()
    return x.grad
