# expect: from one call to backward()
# Right values, but dy_dh comes from a second graph and a second backward(): the text asks for one call.
def grads_with_intermediate(x):
    x = x.detach().clone().requires_grad_(True)
    (torch.tanh(x)**2 * x).sum().backward()
    h = torch.tanh(x).detach().requires_grad_(True)
    (h**2 * x.detach()).sum().backward()
    return x.grad, h.grad
