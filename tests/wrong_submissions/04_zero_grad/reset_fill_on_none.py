# expect: your code used a .grad that is None as a tensor
# fill_(0) on every .grad, including the parameter that never got a gradient.
def reset_grads(params, set_to_none):
    with torch.no_grad():
        for p in params:
            if set_to_none:
                p.grad = None
            else:
                p.grad.fill_(0)
