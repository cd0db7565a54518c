# expect: left a gradient in `x.grad`
# A reader's answer: the caller's x made to require grad and switched back at the end; its .grad is left set.
def two_losses(x):
    x.requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward(retain_graph=True)
    g1 = x.grad.clone()
    x.grad = None
    (h**2).mean().backward()
    g2 = x.grad
    x.requires_grad_(False)
    return g1, g2
