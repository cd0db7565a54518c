# style: backward(create_graph=True) for g, .grad set to None (not zeroed) before the second backward()
def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward(create_graph=True)
    g = xc.grad
    xc.grad = None
    (g * v).sum().backward()
    return xc.grad
