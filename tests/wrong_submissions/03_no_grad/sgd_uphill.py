# expect: moved uphill
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p += lr * p.grad
                p.grad = None
