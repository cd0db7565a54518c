# expect: the norm of one parameter's gradient
# The largest per-parameter norm, not the length of all gradients together.
def grad_norm(model):
    norms = [float(p.grad.norm()) for p in model.parameters() if p.grad is not None]
    return max(norms) if norms else 0.0
