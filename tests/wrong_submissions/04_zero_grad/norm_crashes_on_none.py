# expect: your code used a .grad that is None as a tensor
def grad_norm(model):
    norms = [torch.linalg.vector_norm(p.grad) for p in model.parameters()]
    return torch.linalg.vector_norm(torch.stack(norms))
