# expect: left a gradient in `x.grad`
# A reader's answer: no copy; the caller's x is made to require grad and switched back afterwards, but
# backward() left its gradient in the caller's x.grad.
def grad_via_backward(f, x):
    x.requires_grad_(True)
    f(x).backward()
    g = x.grad.clone()
    x.requires_grad_(False)
    return g
