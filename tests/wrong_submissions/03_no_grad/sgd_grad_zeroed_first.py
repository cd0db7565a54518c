# expect: the step subtracted nothing
# The gradient is reset before it is used: the in-place update subtracts zeros.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.grad.zero_()
                p -= lr * p.grad
                p.grad = None
