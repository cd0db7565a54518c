# style: torch.autograd.backward called directly, once, with inputs=[xc, h]
# A reader's answer: the function form of backward(), naming the two tensors whose .grad it fills.
import torch
def grads_with_intermediate(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.tanh(xc)
    y = (h**2 * xc).sum()
    torch.autograd.backward(y, inputs=[xc, h])
    return xc.grad, h.grad
