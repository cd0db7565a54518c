# style: sub_ with alpha= inside set_grad_enabled(False)
def sgd_step(params, lr):
    with torch.set_grad_enabled(False):
        for p in params:
            if p.grad is None:
                continue
            p.sub_(p.grad, alpha=lr)
            p.grad = None
