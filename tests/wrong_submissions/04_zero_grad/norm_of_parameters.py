# expect: the norm of the parameters themselves
# Takes the norm of p where p.grad was meant.
def grad_norm(model):
    norms = [torch.linalg.vector_norm(p) for p in model.parameters() if p.grad is not None]
    return torch.linalg.vector_norm(torch.stack(norms))
