# style: a leaf made with requires_grad_() on a copy, the rows kept as detached copies
def grad_history(f, x, k):
    leaf = x.clone().detach().requires_grad_()
    rows = []
    for _ in range(k):
        f(leaf).backward()
        rows.append(leaf.grad.detach().clone())
    return torch.stack(rows, dim=0)
