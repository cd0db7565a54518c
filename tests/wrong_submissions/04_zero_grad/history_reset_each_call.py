# expect: .grad was reset between the calls
def grad_history(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    saved = []
    for _ in range(k):
        x.grad = None
        f(x).backward()
        saved.append(x.grad.clone())
    return torch.stack(saved)
