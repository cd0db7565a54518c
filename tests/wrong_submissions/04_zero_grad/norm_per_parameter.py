# expect: should be one number
# Returns the norm of each parameter's gradient instead of one global norm.
def grad_norm(model):
    return [torch.linalg.vector_norm(p.grad) for p in model.parameters() if p.grad is not None]
