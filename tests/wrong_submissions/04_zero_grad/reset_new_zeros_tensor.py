# expect: new tensor object
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is not None:
            p.grad = None if set_to_none else torch.zeros_like(p)
