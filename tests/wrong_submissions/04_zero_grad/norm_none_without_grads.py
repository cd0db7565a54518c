# expect: with no gradient, the norm is 0
# Returns NaN when no parameter has a gradient, instead of the norm of nothing, 0.
def grad_norm(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return float("nan")
    return float(torch.sqrt(sum((g ** 2).sum() for g in grads)))
