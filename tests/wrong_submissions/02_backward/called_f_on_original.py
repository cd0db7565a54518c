# expect: f was called on the x you were given
# The copy is made, but f is called on the caller's x, which has no graph: backward() raises.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(x).backward()
    return xc.grad
