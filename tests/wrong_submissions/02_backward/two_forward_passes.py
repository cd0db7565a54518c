# expect: h was computed 2 times
# Right gradients from two forward passes: the text asks to compute h only once.
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    (torch.sin(x) * x).sum().backward()
    first = x.grad.clone()
    x.grad = None
    ((torch.sin(x) * x)**2).mean().backward()
    return first, x.grad
