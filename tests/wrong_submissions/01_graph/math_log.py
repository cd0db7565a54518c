# expect: math.log was called on a tensor
# Uses the math module, which works on Python numbers, not tensors, and is not recorded.
import math


def build_f(x):
    return math.log(x**2) * torch.sin(x) + 1 / x
