# expect: was None and now holds a tensor
# Gives a parameter that had no gradient a tensor of zeros.
def reset_grads(params, set_to_none):
    for p in params:
        if set_to_none:
            p.grad = None
        elif p.grad is None:
            p.grad = torch.zeros_like(p)
        else:
            p.grad.zero_()
