# expect: yet backward() filled the .grad of the copy
# A reader's answer: the second gradient read from the x given instead of the copy.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad = None
    (h**2).mean().backward()
    return g1, x.grad
