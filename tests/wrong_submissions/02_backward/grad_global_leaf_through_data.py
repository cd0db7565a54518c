# expect: a global
# A reader's answer: one global leaf, x's values swapped in through .data, .grad never reset: the
# next call adds a gradient of another shape into it (PyTorch's size error).
import torch

_leaf = torch.zeros(0, requires_grad=True)


def grad_via_backward(f, x):
    _leaf.data = x.detach().clone()
    f(_leaf).backward()
    return _leaf.grad
