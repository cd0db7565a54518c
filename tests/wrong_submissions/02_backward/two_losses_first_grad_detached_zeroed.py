# expect: two tensor objects over the same memory
# A reader's answer: g1 = xc.grad.detach(), thought of as a copy; it shares xc.grad's memory.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.detach()
    xc.grad.zero_()
    (h**2).mean().backward()
    return g1, xc.grad
