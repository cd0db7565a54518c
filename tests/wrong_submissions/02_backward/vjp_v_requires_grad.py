# expect: only weights the outputs, so it needs no gradient
# A reader's answer: turns on requires_grad on v (thinking the weights need it), changing the caller's v.
def vjp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    v.requires_grad_(True)
    f(xc).backward(gradient=v)
    return xc.grad
