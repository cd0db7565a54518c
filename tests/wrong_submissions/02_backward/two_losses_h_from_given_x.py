# expect: h was computed from the x you were given
# The copy is made, but h is computed from the caller's x, which has no graph: backward() raises.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward(retain_graph=True)
    first = xc.grad.clone()
    xc.grad = None
    (h**2).mean().backward()
    return first, xc.grad
