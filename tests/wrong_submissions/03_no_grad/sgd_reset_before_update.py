# expect: your own code set it to None and then used it
# Resets .grad first, "before the next backward()", and then uses it for the step.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.grad = None
                p -= lr * p.grad
