# expect: changed behind autograd's back
# .data updates the values where autograd cannot see it: the version counter does not move.
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p.data -= lr * p.grad
            p.grad = None
