# expect: was it set to None before being cloned?
# A reader's answer: the reset and the clone in the wrong order.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    xc.grad = None
    g1 = xc.grad.clone()
    (h**2).mean().backward()
    return g1, xc.grad
