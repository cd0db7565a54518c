# expect: still switched off
# set_grad_enabled(False) without switching it back: every later forward pass records nothing.
def sgd_step(params, lr):
    torch.set_grad_enabled(False)
    for p in params:
        if p.grad is not None:
            p -= lr * p.grad
            p.grad = None
