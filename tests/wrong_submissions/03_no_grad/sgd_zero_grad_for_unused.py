# expect: your function gave it a .grad: leave it None
# Gives every parameter a .grad of zeros "so that nothing is None", the unused one included.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
                continue
            p -= lr * p.grad
            p.grad = None
