# expect: after the step differs from PyTorch's result
# Steps each tensor by the mean of its gradient: right only for a 0-d parameter.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad.mean()
                p.grad = None
