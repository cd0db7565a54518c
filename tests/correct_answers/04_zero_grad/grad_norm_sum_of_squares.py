# style: the square root of the sum of every squared entry, summed as Python floats
def grad_norm(model):
    total = 0.0
    for p in model.parameters():
        if p.grad is not None:
            total += float((p.grad ** 2).sum())
    return total ** 0.5
