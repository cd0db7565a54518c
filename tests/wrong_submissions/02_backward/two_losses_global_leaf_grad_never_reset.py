# expect: a leaf made on one call and reused, whose .grad adds up
# A reader's answer: one global leaf per shape whose values are swapped in through .data, and whose
# .grad is never reset between calls. Within a call it keeps x.grad.clone() right after the first
# backward(), as asked; the second call starts from the first call's .grad.
import torch

_leaves = {}


def two_losses(x):
    leaf = _leaves.setdefault(tuple(x.shape), x.detach().clone().requires_grad_(True))
    leaf.data = x.detach().clone()
    h = torch.sin(leaf) * leaf
    h.sum().backward(retain_graph=True)
    first = leaf.grad.clone()
    (h**2).mean().backward()
    return first, leaf.grad.clone() - first
