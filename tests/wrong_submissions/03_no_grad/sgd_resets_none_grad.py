# expect: your own code set it to None and then used it
# Sets .grad to None, then zeroes it: the None it fails on is its own, on every parameter, not the
# unused parameter's missing .grad, so "skip parameters whose .grad is None" would not help.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad = None
            p.grad.zero_()
