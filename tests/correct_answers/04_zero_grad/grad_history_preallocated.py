# style: the rows written into a tensor made up front (each assignment copies), the leaf made with torch.tensor-free clone()
def grad_history(f, x, k):
    leaf = x.clone().detach().requires_grad_(True)
    history = torch.empty((k, *x.shape), dtype=x.dtype)
    for i in range(k):
        f(leaf).backward()
        history[i] = leaf.grad
    return history
