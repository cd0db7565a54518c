# expect: only rebinds the name p
# p = p - ... makes a new tensor; the one in params never changes.
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p = p - lr * p.grad
            p.grad = None
