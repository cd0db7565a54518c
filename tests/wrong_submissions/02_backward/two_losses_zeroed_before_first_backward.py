# expect: nothing to zero yet
# A reader's answer: a reset before each backward(), the first one on a .grad that is still None.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    xc.grad.zero_()
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad.zero_()
    (h**2).mean().backward()
    return g1, xc.grad
