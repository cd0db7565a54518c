# expect: return that copy's .grad
# A reader's answer: backward() through the copy, then the .grad of the x given, which never gets one.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return x.grad
