# expect: v only weights the outputs, and nothing is differentiated with respect to it
# A reader's answer: requires_grad switched on for v "so that autograd sees the weights".
def vjp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    v.requires_grad_(True)
    f(xc).backward(gradient=v)
    return xc.grad
