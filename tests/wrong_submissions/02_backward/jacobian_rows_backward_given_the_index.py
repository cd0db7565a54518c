# expect: backward() was given a number as its first argument
# A reader's answer: y.backward(i, ...) to differentiate the element i, as if backward's first argument picked it.
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    rows = []
    for i in range(len(y)):
        xc.grad = None
        y.backward(i, retain_graph=True)
        rows.append(xc.grad.clone())
    return torch.stack(rows)
