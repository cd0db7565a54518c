# expect: the second backward() added into the .grad that still held g
# Two backward() calls into the same .grad: the second adds H v to the gradient already there.
def hvp(f, x, v):
    x = x.detach().clone().requires_grad_(True)
    f(x).backward(create_graph=True)
    (x.grad * v).sum().backward()
    return x.grad.detach()
