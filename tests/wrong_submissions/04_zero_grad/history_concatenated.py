# expect: has shape
# expect: 0-d tensors cannot be joined by torch.cat
# Joins the rows end to end instead of stacking them: shape (k * n, ...), not (k, *x.shape).
def grad_history(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    saved = []
    for _ in range(k):
        f(x).backward()
        saved.append(x.grad.clone())
    return torch.cat(saved)
