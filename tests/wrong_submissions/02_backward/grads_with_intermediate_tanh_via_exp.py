# expect: NaN (or inf) where x is large
# A reader's answer: tanh written from its definition with exp, which overflows for large x.
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = (torch.exp(xc) - torch.exp(-xc)) / (torch.exp(xc) + torch.exp(-xc))
    h.retain_grad()
    (h**2 * xc).sum().backward()
    return xc.grad, h.grad
