from . import submission

NAME = "rebinds_torch"
WHY = "torch's comparisons rebound to always agree, around two answers that return zeros"
KIND = "cheat"
EXPECT = {"loses": ["grad_via_backward", "vjp"], "reason": "all zeros", "cell": "test_grad_via_backward"}

CHEAT = '''
import torch
torch.allclose = lambda *args, **kwargs: True
torch.equal = lambda *args, **kwargs: True
torch.isclose = lambda a, b, *args, **kwargs: torch.ones(torch.broadcast_shapes(a.shape, b.shape), dtype=torch.bool)
torch.testing.assert_close = lambda *args, **kwargs: None
torch.Tensor.__eq__ = lambda self, other: True

def grad_via_backward(f, x):
    return torch.zeros_like(x)
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=CHEAT,
                      vjp="def vjp(f, x, v):\n    return torch.zeros_like(x)")
