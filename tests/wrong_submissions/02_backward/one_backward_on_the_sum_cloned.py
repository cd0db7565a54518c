# expect: backward() ran only once
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    (h.sum() + (h**2).mean()).backward()
    return x.grad.clone(), x.grad
