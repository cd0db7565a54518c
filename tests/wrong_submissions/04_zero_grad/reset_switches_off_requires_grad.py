# expect: switched off `params[0].requires_grad`
# Resets right, then "freezes" every parameter as well: the caller's parameters no longer train.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                p.grad.zero_()
        p.requires_grad_(False)
