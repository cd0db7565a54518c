# expect: a NumPy array
# A reader's answer: the gradient handed back as a NumPy array, "to print it nicely".
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return xc.grad.numpy()
