# expect: changed `x.requires_grad`
# Works on the caller's x instead of a copy.
def grad_history(f, x, k):
    x.requires_grad_(True)
    saved = []
    for _ in range(k):
        f(x).backward()
        saved.append(x.grad.clone())
    return torch.stack(saved)
