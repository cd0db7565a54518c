# expect: and it is the sum of all the rows
# A reader's answer: one backward() from y.sum(), which gives the sum of the Jacobian's rows.
def jacobian_rows(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).sum().backward()
    return xc.grad
