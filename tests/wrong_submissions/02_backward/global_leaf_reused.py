# expect: keeps something from one call to the next
# A reader's answer: one global leaf reused across calls, values swapped in with .data, .grad never reset (accumulates).
import torch
_leaf = torch.zeros(0, requires_grad=True)
def grad_via_backward(f, x):
    _leaf.data = x.detach().clone()
    f(_leaf).backward()
    return _leaf.grad
