# expect: pass retain_graph=True to the first backward()
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward()
    first = x.grad.clone()
    x.grad = None
    (h**2).mean().backward()
    return first, x.grad
