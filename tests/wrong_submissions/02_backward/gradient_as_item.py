# expect: turned a tensor of several elements into one Python number
# A reader's answer: returns .grad.item() (a Python float) instead of the gradient tensor.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return xc.grad.item()
