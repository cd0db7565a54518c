# expect: a .detach() or .data of one
# .data hands back a tensor with no history, so backward() has nothing to walk.
def grad_via_backward(f, x):
    x = x.detach().clone().requires_grad_(True)
    y = f(x.data)
    y.backward()
    return x.grad
