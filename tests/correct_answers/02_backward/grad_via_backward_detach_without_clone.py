# style: x.detach() without .clone(): a new leaf over x's memory, so requires_grad_() leaves the caller's x as it was
def grad_via_backward(f, x):
    leaf = x.detach().requires_grad_()
    f(leaf).backward()
    return leaf.grad
