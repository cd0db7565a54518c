# expect: keeps something per parameter from one call to the next
# A reader's answer: a momentum buffer kept for each parameter tensor in a WeakKeyDictionary; looking
# the tensor up again compares tensors with ==, which raises once the same tensor is stepped twice.
import weakref

_velocity = weakref.WeakKeyDictionary()


def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                v = _velocity.get(p)
                v = p.grad.clone() if v is None else 0.9 * v + p.grad
                _velocity[p] = v
                p -= lr * v
                p.grad = None
