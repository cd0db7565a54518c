# expect: dimensions of size 1 are gone
# A reader's answer: the result squeezed, wrong for an x of one element.
def vjp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(gradient=v)
    return xc.grad.squeeze()
