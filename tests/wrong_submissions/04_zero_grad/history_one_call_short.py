# expect: a range that starts or ends one off
# range(k - 1): one backward() call, and one row, too few.
def grad_history(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    rows = []
    for _ in range(k - 1):
        f(x).backward()
        rows.append(x.grad.clone())
    return torch.stack(rows)
