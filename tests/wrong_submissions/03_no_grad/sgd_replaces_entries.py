# expect: holds new tensors
# New leaves in the list: the model and its optimizer still hold the old ones.
def sgd_step(params, lr):
    for i, p in enumerate(params):
        if p.grad is not None:
            params[i] = (p - lr * p.grad).detach().requires_grad_(True)
