# expect: gave a different result when it was called again with the same inputs
# A momentum buffer kept in a global between calls: the first step is plain gradient descent,
# every later one adds what earlier calls saw for a parameter of that place and shape.
_velocity = {}


def sgd_step(params, lr):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is not None:
                key = (i, tuple(p.shape))
                v = _velocity.get(key)
                v = p.grad.clone() if v is None else 0.9 * v + p.grad
                _velocity[key] = v
                p -= lr * v
                p.grad = None
