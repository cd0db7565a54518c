# style: copy_() of the new values under a no_grad decorator, `del p.grad` for the reset
@torch.no_grad()
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p.copy_(p - lr * p.grad)
            del p.grad
