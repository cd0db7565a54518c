# expect: each saved row shares its memory with .grad
# A reader's answer: thinks detach() copies: rows share memory with .grad.
def grad_history(f, x, k):
    x = x.clone().requires_grad_(True)
    rows = []
    for _ in range(k):
        f(x).backward()
        rows.append(x.grad.detach())
    return torch.stack(rows)
