# expect: `v.requires_grad`
# Right values, but it switches on requires_grad of the caller's v ("so autograd sees it"):
# the statement says not to change x or v.
def vjp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    f(x).backward(gradient=v.requires_grad_(True))
    return x.grad
