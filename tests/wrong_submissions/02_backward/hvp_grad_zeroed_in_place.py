# expect: your code called zero_() on .grad after backward(create_graph=True)
# A reader's answer, following "reset .grad" with zero_(): g is that .grad tensor, so g . v becomes 0.
def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(create_graph=True)
    g = xc.grad
    xc.grad.zero_()
    (g * v).sum().backward()
    return xc.grad
