# expect: nothing to zero yet
# A reader's answer: zero_() before each row, the first time on a .grad that is still None.
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    rows = []
    for i in range(y.numel()):
        xc.grad.zero_()
        y[i].backward(retain_graph=True)
        rows.append(xc.grad.clone())
    return torch.stack(rows)
