# style: backward(create_graph=True), then the dot product's gradient with torch.autograd.grad
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad(g, x, grad_outputs=v)
    return hv
