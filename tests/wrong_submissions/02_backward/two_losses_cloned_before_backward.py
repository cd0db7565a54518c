# expect: before the first backward()
# A reader's answer: the clone taken first, "to keep the gradient", while .grad is still None.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    g1 = xc.grad.clone()
    h.sum().backward(retain_graph=True)
    xc.grad = None
    (h**2).mean().backward()
    return g1, xc.grad
