# expect: need the shape of the output they weight
# A reader's answer: gradient=torch.ones_like(x), copied from a vector example. It runs for a 0-d x only:
# f's output is a scalar, and the weights must have its shape, not x's.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(gradient=torch.ones_like(xc))
    return xc.grad
