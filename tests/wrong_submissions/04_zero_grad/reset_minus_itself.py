# expect: inf - inf
# Zeroes in place by subtracting the gradient from itself: an overflowed entry, inf - inf, is NaN.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                p.grad -= p.grad
