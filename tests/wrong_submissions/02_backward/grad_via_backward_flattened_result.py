# expect: or the result flattened (view(-1), flatten())
# expect: dimensions of size 1 are gone
# expect: an extra dimension of size 1
# expect: Same number of elements: is it transposed or reshaped?
# A reader's answer: the gradient returned flattened, view(-1), as if x were always one-dimensional.
def grad_via_backward(f, x):
    xc = x.detach().clone().requires_grad_(True)
    f(xc).backward()
    return xc.grad.view(-1)
