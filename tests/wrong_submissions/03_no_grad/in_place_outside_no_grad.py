# expect: a leaf Variable that requires grad is being used in an in-place operation
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p -= lr * p.grad
            p.grad = None
