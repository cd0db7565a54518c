# expect: zeroes the parameter itself, not its gradient
# A reader's answer: zeroes the parameter itself (p.data.zero_()) instead of its gradient.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            p.data.zero_()
