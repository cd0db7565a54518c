# expect: grad_outputs=
# The second torch.autograd.grad starts from the vector g itself, with no weights: PyTorch refuses.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad(g, x)
    return hv
