# expect: two tensor objects over the same memory
# A reader's answer: g1 = xc.grad.data "to cut it from the graph", then zero_() before the second
# backward(). .data is a new tensor object over the same memory: zero_() and the second backward() change it.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.data
    xc.grad.zero_()
    (h**2).mean().backward()
    return g1, xc.grad
