# expect: your function returned new tensors, but what it returns is ignored
# Returns the stepped tensors, as a pure function would, and changes nothing in place.
def sgd_step(params, lr):
    with torch.no_grad():
        return [p - lr * p.grad if p.grad is not None else p for p in params]
