# expect: f was called on the x you were given
def grad_via_backward(f, x):
    y = f(x)
    y.backward()
    return x.grad
