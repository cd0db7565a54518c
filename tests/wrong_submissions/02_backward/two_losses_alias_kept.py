# expect: after the second backward() had added into it
# The section 4 pitfall: `first = x.grad` is the same tensor the second backward() adds into.
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward(retain_graph=True)
    first = x.grad
    start = x.grad.clone()
    (h**2).mean().backward()
    return first, x.grad - start
