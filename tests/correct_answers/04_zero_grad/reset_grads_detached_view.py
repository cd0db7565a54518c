# style: zeros written through a detached view of each gradient (same storage, same tensor object)
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            p.grad.detach().zero_()
