# expect: coarser than v's own float64
# A reader's answer: v converted to float32 "to match the default dtype", which rounds it for a float64 x.
def vjp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(gradient=v.float())
    return xc.grad
