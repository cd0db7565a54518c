# expect: loss1 = h.sum() adds the elements up
# A reader's answer: loss1 taken as a mean like loss2.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.mean().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad = None
    (h**2).mean().backward()
    return g1, xc.grad
