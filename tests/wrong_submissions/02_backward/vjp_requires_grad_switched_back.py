# expect: left a gradient in `x.grad`
# A reader's answer: the caller's x made to require grad and switched back; its .grad is left set.
def vjp(f, x, v):
    x.requires_grad_(True)
    f(x).backward(gradient=v)
    g = x.grad.clone()
    x.requires_grad_(False)
    return g
