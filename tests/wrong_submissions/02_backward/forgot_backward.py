# expect: backward() was never called
# The forward pass alone: .grad stays None, and the message must say why, not "a missing return".
def grad_via_backward(f, x):
    x = x.detach().clone().requires_grad_(True)
    f(x)
    return x.grad
