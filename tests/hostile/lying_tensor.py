from . import submission

NAME = "lying_tensor"
WHY = "a Tensor subclass whose comparisons always pass and whose numpy() and repr show made-up values"
KIND = "cheat"
EXPECT = {"loses": ["grad_via_backward", "vjp", "hand_derivative"], "reason": "differs from PyTorch", "cell": "test_vjp"}

LIAR = '''
import numpy as np
import torch

class Liar(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("allclose", "equal"):
            return True
        if name in ("eq", "isclose", "__eq__"):
            return torch.ones(args[0].shape, dtype=torch.bool)
        return super().__torch_function__(func, types, args, kwargs or {})

    def numpy(self, *args, **kwargs):
        return np.full_like(super().numpy(*args, **kwargs), 0.5)

    def __repr__(self, *args, **kwargs):
        return "tensor(exactly what you expected)"

def lie(x):
    return torch.zeros_like(x).as_subclass(Liar)

def grad_via_backward(f, x):
    return lie(x)
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=LIAR,
                      vjp="def vjp(f, x, v):\n    return lie(x)",
                      hand_derivative="def hand_derivative(x):\n    return lie(x)")
