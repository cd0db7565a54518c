# expect: keeps something per parameter from one call to the next
# A momentum buffer kept on each parameter tensor as an attribute: the first step is plain gradient
# descent, the next step on the same tensor adds 0.9 times the first one's gradient.
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                v = getattr(p, "velocity", None)
                v = p.grad.clone() if v is None else 0.9 * v + p.grad
                p.velocity = v
                p -= lr * v
                p.grad = None
