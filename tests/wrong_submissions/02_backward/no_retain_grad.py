# expect: retain_grad()
def grads_with_intermediate(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.tanh(x)
    (h**2 * x).sum().backward()
    return x.grad, h.grad
