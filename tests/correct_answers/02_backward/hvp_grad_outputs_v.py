# style: the second differentiation takes v as grad_outputs= (v^T H, which is H v for a symmetric H)
def hvp(f, x, v):
    leaf = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(leaf), leaf, create_graph=True)
    (hv,) = torch.autograd.grad(g, leaf, grad_outputs=v)
    return hv
