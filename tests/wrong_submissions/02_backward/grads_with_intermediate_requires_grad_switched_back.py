# expect: left a gradient in `x.grad`
# A reader's answer: the caller's x made to require grad, then switched back; backward() left x.grad set.
def grads_with_intermediate(x):
    x.requires_grad_(True)
    h = torch.tanh(x)
    h.retain_grad()
    (h**2 * x).sum().backward()
    x.requires_grad_(False)
    return x.grad.clone(), h.grad
