from . import submission

NAME = "rebinds_builtins"
WHY = "abs/round/sum/pow rebound in builtins (a tolerance test abs(a - b) < tol always passes), around two wrong answers"
KIND = "cheat"
EXPECT = {"loses": ["two_losses", "jacobian_rows"], "reason": "is the same", "cell": "test_jacobian_rows"}

CHEAT = '''
import builtins
builtins.abs = lambda value: 0
builtins.round = lambda value, *args: 0
builtins.sum = lambda *args, **kwargs: 0
builtins.pow = lambda *args: 0

def two_losses(x):
    return x, x
'''


def build(release, solutions):
    return submission(release, solutions, two_losses=CHEAT,
                      jacobian_rows="def jacobian_rows(f, x):\n    return torch.ones(x.numel(), x.numel(), dtype=x.dtype)")
