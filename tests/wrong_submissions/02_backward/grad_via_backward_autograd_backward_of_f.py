# expect: your code used f, the function you were given, as if it were a tensor
# A reader's answer: torch.autograd.backward(f, copy), as if it took a function and its input.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    torch.autograd.backward(f, xc)
    return xc.grad
