# expect: your pair is in the wrong order
# Both gradients right, returned as (dy_dh, dy_dx).
def grads_with_intermediate(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.tanh(x)
    h.retain_grad()
    (h**2 * x).sum().backward()
    return h.grad, x.grad
