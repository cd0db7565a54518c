# style: torch.autograd.backward(f(leaf)) instead of the method, on a copy made with torch.clone
def grad_via_backward(f, x):
    leaf = torch.clone(x).requires_grad_(True)
    torch.autograd.backward(f(leaf))
    return leaf.grad
