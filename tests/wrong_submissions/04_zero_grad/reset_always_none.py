# expect: should be a tensor of zeros, but it is None
def reset_grads(params, set_to_none):
    for p in params:
        p.grad = None
