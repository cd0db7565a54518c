# expect: the first backward() freed the graph
# A reader's answer: one backward() per row on the same y, the graph not kept after the first.
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    rows = []
    for i in range(y.numel()):
        xc.grad = None
        y[i].backward()
        rows.append(xc.grad.clone())
    return torch.stack(rows)
