# expect: turned a tensor of several elements into one Python number
# A reader's answer: .item() of the gradient, which has one entry per element of x.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return xc.grad.item()
