# style: torch.autograd.grad per output element, rows collected in a preallocated tensor
def jacobian_rows(f, x):
    leaf = x.detach().clone().requires_grad_(True)
    y = f(leaf).reshape(-1)
    jac = torch.empty(y.numel(), x.numel(), dtype=x.dtype)
    for i in range(y.numel()):
        (jac[i],) = torch.autograd.grad(y[i], leaf, retain_graph=True)
    return jac
