# expect: should be None, but it is still a tensor of zeros
# Ignores set_to_none=True: zeroes in place every time.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is not None:
            p.grad.zero_()
