# expect: called after backward()
# A reader's answer: retain_grad() called once the gradients are computed, "to keep them".
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    (h**2 * xc).sum().backward()
    h.retain_grad()
    return xc.grad, h.grad
