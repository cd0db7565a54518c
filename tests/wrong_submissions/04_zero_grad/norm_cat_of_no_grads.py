# expect: torch.cat and torch.stack refuse an empty list
# A reader's answer: right whenever some parameter has a gradient; with none, torch.cat gets an
# empty list and raises.
def grad_norm(model):
    return torch.cat([p.grad.reshape(-1) for p in model.parameters() if p.grad is not None]).norm()
