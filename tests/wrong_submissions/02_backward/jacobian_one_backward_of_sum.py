# expect: has the shape of one row
# A reader's answer: one backward() of y.sum(): the sum of the rows, not the Jacobian.
import torch
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).sum().backward()
    return xc.grad
