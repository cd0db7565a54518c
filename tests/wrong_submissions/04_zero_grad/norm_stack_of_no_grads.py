# expect: The norm of no gradients is 0
# The lesson's per-parameter norms, stacked: with no .grad at all, torch.stack gets an empty list.
def grad_norm(model):
    norms = [torch.linalg.vector_norm(p.grad) for p in model.parameters() if p.grad is not None]
    return torch.linalg.vector_norm(torch.stack(norms))
