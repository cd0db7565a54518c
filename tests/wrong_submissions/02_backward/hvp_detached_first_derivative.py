# expect: the first derivative g was cut out of it
# create_graph=True kept the graph, and detach() then cut g out of it before the dot product.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad((g.detach() * v).sum(), x)
    return hv
