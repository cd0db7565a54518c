# expect: sum() of an empty list is the Python int 0
# Right with gradients; with none, sum() gives the int 0, which has no .sqrt().
def grad_norm(model):
    total = sum((p.grad ** 2).sum() for p in model.parameters() if p.grad is not None)
    return total.sqrt()
