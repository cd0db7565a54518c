# expect: sum of the per-parameter norms
def grad_norm(model):
    return sum(torch.linalg.vector_norm(p.grad) for p in model.parameters() if p.grad is not None)
