# expect: each row was flattened
# Each saved row flattened with view(-1): right only when x is a vector.
def grad_history(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    rows = []
    for _ in range(k):
        f(x).backward()
        rows.append(x.grad.clone().view(-1))
    return torch.stack(rows)
