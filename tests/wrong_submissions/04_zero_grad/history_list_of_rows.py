# expect: torch.stack() makes one tensor of them
# Returns the list of saved rows itself.
def grad_history(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    rows = []
    for _ in range(k):
        f(x).backward()
        rows.append(x.grad.clone())
    return rows
