# expect: gradient of y.sum()
def vjp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    f(x).sum().backward()
    return x.grad
