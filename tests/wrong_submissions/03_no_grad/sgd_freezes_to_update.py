# expect: requires_grad is now False
# Switching requires_grad off makes the in-place update legal, but the parameter stops learning.
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p.requires_grad_(False)
            p -= lr * p.grad
            p.grad = None
