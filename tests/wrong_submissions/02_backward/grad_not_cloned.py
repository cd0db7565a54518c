# expect: same tensor object
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward(retain_graph=True)
    first = x.grad
    (h**2).mean().backward()
    return first, x.grad
