# expect: your code used f, the function you were given, as if it were a tensor
# A reader's answer: backward() called on f itself, the function, instead of on its value at the copy.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f.backward()
    return xc.grad
