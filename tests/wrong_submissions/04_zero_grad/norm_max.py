# expect: one length of all the gradients laid end to end
# Another norm of all the gradients together (max), not the global (L2) norm.
def grad_norm(model):
    g = torch.cat([p.grad.reshape(-1) for p in model.parameters() if p.grad is not None])
    return g.abs().max()
