# expect: is a 0-d tensor (a single number
# Writes the new values into p[:]: in place, but a 0-d parameter has no dimension to slice.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p[:] = p - lr * p.grad
                p.grad = None
