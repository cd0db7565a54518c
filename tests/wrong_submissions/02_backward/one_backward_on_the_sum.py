# expect: backward() ran only once, so .grad holds one gradient
# One backward() from loss1 + loss2 gives the gradient of the sum, returned twice.
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    (h.sum() + (h**2).mean()).backward()
    return x.grad, x.grad
