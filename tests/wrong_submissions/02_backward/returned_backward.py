# expect: backward() itself returns None
# backward() runs and fills the copy's .grad, but the function returns what backward() returned.
def grad_via_backward(f, x):
    x = x.detach().clone().requires_grad_(True)
    return f(x).backward()
