# expect: the rows alias one .grad tensor
# zero_() between rows, but each row appended is x.grad itself: all rows end up as the last one.
def jacobian_rows(f, x):
    x = x.detach().clone().requires_grad_(True)
    y = f(x)
    rows = []
    for i in range(y.numel()):
        if x.grad is not None:
            x.grad.zero_()
        y[i].backward(retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows)
