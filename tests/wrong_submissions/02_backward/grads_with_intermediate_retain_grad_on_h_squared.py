# expect: retain_grad() was called on another tensor
# A reader's answer: the gradient kept of h**2, the factor y multiplies by x, and returned as dy_dh.
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    h2 = h**2
    h2.retain_grad()
    (h2 * xc).sum().backward()
    return xc.grad, h2.grad
