# expect: returned f's value f(x), not its gradient
# A reader's answer: returns the value of f on the copy instead of the copy's .grad after backward().
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    return f(xc)
