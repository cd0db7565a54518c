# expect: retain_grad() was called on another tensor
# A reader's answer: retain_grad() on y, the output, instead of on h.
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    y = (h**2 * xc).sum()
    y.retain_grad()
    y.backward()
    return xc.grad, h.grad
