# style: every gradient flattened and joined into one long vector, then its norm; 0.0 when there is none
def grad_norm(model):
    flat = [p.grad.reshape(-1) for p in model.parameters() if p.grad is not None]
    if not flat:
        return 0.0
    return torch.cat(flat).norm()
