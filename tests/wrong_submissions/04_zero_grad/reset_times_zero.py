# expect: inf * 0, inf - inf and NaN * 0 are all NaN
# A reader's answer: zeros by multiplying by 0, in place; a gradient that overflowed to inf
# becomes NaN instead of 0.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            p.grad *= 0
