# expect: 0-d
# A reader's answer: the gradient rebuilt row by row with a loop over x, which cannot run over a 0-d x.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return torch.stack([row for row in xc.grad])
