# style: torch.sum and clones of both gradients
# A reader's answer: torch.sum / torch.mul spelling, clones of both gradients.
import torch
def grads_with_intermediate(x):
    leaf = x.clone()
    leaf.requires_grad_()
    h = leaf.tanh()
    h.retain_grad()
    torch.sum(torch.mul(h.pow(2), leaf)).backward()
    return leaf.grad.clone(), h.grad.clone()
