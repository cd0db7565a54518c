# expect: returned the very tensor object it had returned on an earlier call
# A cache of leaves keyed on the values: equal lists get the same leaf back, so whatever one caller
# does with it (a backward() that fills its .grad, say) the next caller finds there.
import torch

_leaves = {}


def leaf_from_list(values):
    key = tuple(values)
    if key not in _leaves:
        _leaves[key] = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    return _leaves[key]
