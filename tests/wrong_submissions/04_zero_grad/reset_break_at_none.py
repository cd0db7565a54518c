# expect: your loop stopped before the end of the list
# `break` where `continue` belongs: the parameters after the first one without a gradient keep theirs.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is None:
            break
        if set_to_none:
            p.grad = None
        else:
            p.grad.zero_()
