# expect: dimensions of size 1 are gone
# A reader's answer: the stacked rows squeezed, wrong for f of one output or x of one element.
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    rows = []
    for i in range(y.numel()):
        xc.grad = None
        y[i].backward(retain_graph=True)
        rows.append(xc.grad.clone())
    return torch.stack(rows).squeeze()
