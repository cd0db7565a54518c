# expect: the norm of one parameter's gradient
# Returns as soon as it finds a gradient: the norm of the first one only.
def grad_norm(model):
    for p in model.parameters():
        if p.grad is not None:
            return p.grad.norm()
    return 0.0
