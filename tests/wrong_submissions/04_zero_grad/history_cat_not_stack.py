# expect: were the rows joined end to end (torch.cat)
# expect: 0-d tensors cannot be joined by torch.cat
# A reader's answer: torch.cat instead of torch.stack (shape (k*n,) not (k, n)).
def grad_history(f, x, k):
    x = x.clone().requires_grad_(True)
    rows = []
    for _ in range(k):
        f(x).backward()
        rows.append(x.grad.clone())
    return torch.cat(rows)
