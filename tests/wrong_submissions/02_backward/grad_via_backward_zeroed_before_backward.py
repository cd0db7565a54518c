# expect: there is nothing to zero
# A reader's answer: "reset .grad first", on a fresh copy whose .grad is still None.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    xc.grad.zero_()
    f(xc).backward()
    return xc.grad
