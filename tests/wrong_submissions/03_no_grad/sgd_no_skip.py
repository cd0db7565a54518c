# expect: took no part in the loss
# A parameter that took no part in the loss has .grad None: lr * None fails.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None
