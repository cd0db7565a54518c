# expect: backward() went through f once
# Right numbers, but computed, not observed: backward() ran once.
def grad_history(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    f(x).backward()
    return torch.stack([x.grad * (i + 1) for i in range(k)])
