# expect: changed `x.requires_grad`
# Right v^T J, but on the caller's own x: "do not change x or v".
def vjp(f, x, v):
    x.requires_grad_(True)
    f(x).backward(gradient=v)
    return x.grad
