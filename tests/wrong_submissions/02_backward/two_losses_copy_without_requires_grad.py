# expect: a copy of x that does not require grad
# A reader's answer: the copy made, but never made to require grad: nothing is recorded.
def two_losses(x):
    xc = x.detach().clone()
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad = None
    (h**2).mean().backward()
    return g1, xc.grad
