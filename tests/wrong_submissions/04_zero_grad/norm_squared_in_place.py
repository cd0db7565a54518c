# expect: reading the norm must leave the gradients
# pow_ squares each .grad in place: the norm is right, the gradients are ruined.
def grad_norm(model):
    return sum(p.grad.pow_(2).sum() for p in model.parameters() if p.grad is not None) ** 0.5
