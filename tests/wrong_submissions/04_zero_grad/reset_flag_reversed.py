# expect: should be a tensor of zeros, but it is None
# expect: should be None, but it is still a tensor of zeros
# The two branches swapped: zeros for set_to_none=True, None for False.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is not None:
            if set_to_none:
                p.grad.zero_()
            else:
                p.grad = None
