# expect: did the loop run over x's elements?
# A reader's answer: one row per element of x, not per output element; for f with fewer outputs than
# inputs it indexes past y's end (for more outputs, the shape says it).
import torch


def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    rows = []
    for i in range(len(x)):
        xc.grad = None
        y[i].backward(retain_graph=True)
        rows.append(xc.grad.clone())
    return torch.stack(rows)
