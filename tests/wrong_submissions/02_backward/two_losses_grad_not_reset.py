# expect: plus what .grad held before
# The first gradient is cloned, but .grad is not reset: the second holds loss1's gradient plus loss2's.
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward(retain_graph=True)
    first = x.grad.clone()
    (h**2).mean().backward()
    return first, x.grad
