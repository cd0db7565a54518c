# expect: returned the copy of x that f was called on, not its gradient
# A reader's answer: returns the copy itself instead of its .grad.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return xc
