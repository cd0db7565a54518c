# expect: is None, because no backward() has reached that parameter yet
# Forgets that a parameter may have no gradient yet.
def reset_grads(params, set_to_none):
    for p in params:
        if set_to_none:
            p.grad = None
        else:
            p.grad.zero_()
