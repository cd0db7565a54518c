# expect: NaN (or inf) where x is large
# A reader's answer: tanh as 1 - 2 / (exp(2x) + 1), whose value is fine for large x but whose backward
# pass multiplies inf by 0 there.
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = 1 - 2 / (torch.exp(2 * xc) + 1)
    h.retain_grad()
    (h**2 * xc).sum().backward()
    return xc.grad, h.grad
