# expect: f(x) has no grad_fn
# A reader's answer: f worked out number by number with math, then put back into a new tensor, which
# has no graph (and the default dtype): the broken graph is named, not the dtype.
import math

import torch


def build_f(x):
    values = [math.log(v**2) * math.sin(v) + 1 / v for v in x.reshape(-1).tolist()]
    return torch.tensor(values).reshape(x.shape)
