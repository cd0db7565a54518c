# expect: .detach() or .data), and return
# The whole function on x.data: the values are right, but nothing is recorded.
import torch


def build_f(x):
    x = x.data
    return torch.log(x**2) * torch.sin(x) + 1 / x
