# expect: changed `x.requires_grad`
# Right gradient, but the caller's x now requires grad: the text says to work on a copy.
def grad_via_backward(f, x):
    x.requires_grad_(True)
    f(x).backward()
    return x.grad
