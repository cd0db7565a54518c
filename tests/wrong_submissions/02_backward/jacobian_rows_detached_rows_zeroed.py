# expect: the rows alias one .grad tensor
# A reader's answer: each row kept as xc.grad.detach(), thought of as a copy, with zero_() between rows.
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    rows = []
    for i in range(y.numel()):
        if xc.grad is not None:
            xc.grad.zero_()
        y[i].backward(retain_graph=True)
        rows.append(xc.grad.detach())
    return torch.stack(rows)
