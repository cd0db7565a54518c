# expect: inside its own `with torch.no_grad():` block
# Switches recording off, then back on "to restore it": called inside the caller's no_grad(), it
# turns recording on for everything the caller does next.
def sgd_step(params, lr):
    torch.set_grad_enabled(False)
    for p in params:
        if p.grad is not None:
            p -= lr * p.grad
            p.grad = None
    torch.set_grad_enabled(True)
