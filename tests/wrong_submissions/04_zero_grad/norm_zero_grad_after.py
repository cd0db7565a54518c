# expect: your code reset `model
# Reads the norm, then tidies up with zero_grad(): the caller's step() finds no gradient.
def grad_norm(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    total = torch.sqrt(sum((g ** 2).sum() for g in grads)) if grads else 0.0
    model.zero_grad()
    return total
