# style: h's gradient seen by a hook registered on h, not read from h.grad
import torch


def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    seen = []
    h.register_hook(seen.append)
    (h**2 * xc).sum().backward()
    return xc.grad, seen[0]
