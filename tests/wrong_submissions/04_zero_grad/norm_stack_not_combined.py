# expect: returned a tensor of
# The per-parameter norms stacked, and never combined into one number.
def grad_norm(model):
    norms = [p.grad.norm() for p in model.parameters() if p.grad is not None]
    return torch.stack(norms) if norms else 0.0
