# expect: includes the rows above it
def jacobian_rows(f, x):
    x = x.detach().clone().requires_grad_(True)
    y = f(x)
    rows = []
    for i in range(y.numel()):
        y[i].backward(retain_graph=True)
        rows.append(x.grad.clone())
    return torch.stack(rows)
