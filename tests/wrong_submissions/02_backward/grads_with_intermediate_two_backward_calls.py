# expect: backward() ran 2 times
# A reader's answer: two direct calls of torch.autograd.backward, one per gradient, on two forward passes.
import torch


def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    torch.autograd.backward((h**2 * xc).sum(), inputs=[xc])
    h2 = torch.tanh(xc)
    h2.retain_grad()
    torch.autograd.backward((h2**2 * xc).sum(), inputs=[h2])
    return xc.grad, h2.grad
