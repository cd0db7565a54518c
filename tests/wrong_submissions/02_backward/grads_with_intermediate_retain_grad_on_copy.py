# expect: called on the copy of x, a leaf
# A reader's answer: retain_grad() on the copy of x (a leaf, whose .grad is kept anyway), not on h.
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    xc.retain_grad()
    h = torch.tanh(xc)
    (h**2 * xc).sum().backward()
    return xc.grad, h.grad
