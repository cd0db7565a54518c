# expect: torch.autograd.grad returns a tuple
# A reader's answer: rows from torch.autograd.grad kept as tuples, which torch.stack cannot take.
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    rows = [torch.autograd.grad(y[i], xc, retain_graph=True) for i in range(y.numel())]
    return torch.stack(rows)
