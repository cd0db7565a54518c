# expect: dimensions of size 1 are gone
# A reader's answer: .squeeze() to "tidy" the gradient. Right for every x without a dimension of size 1,
# wrong for x of shape (1,), (1, n) or (n, 1), and for a 0-d x nothing changes.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return xc.grad.squeeze()
