# style: one backward(gradient=one-hot) per row on a kept graph, rows written into a preallocated tensor
def jacobian_rows(f, x):
    x = x.detach().clone().requires_grad_(True)
    y = f(x)
    jac = torch.zeros(y.numel(), x.numel(), dtype=x.dtype)
    for i in range(y.numel()):
        pick = torch.zeros_like(y)
        pick[i] = 1
        x.grad = None
        y.backward(gradient=pick, retain_graph=True)
        jac[i] = x.grad
    return jac
