# expect: a tensor kept from an earlier call
# expect: gave a different result when it was called again with the same inputs
# 1/x "computed once" per shape and kept in a global: the next x of that shape gets the old x's 1/x,
# whose graph ends at the old x.
_reciprocals = {}


def build_f(x):
    if x.shape not in _reciprocals:
        _reciprocals[x.shape] = 1 / x
    return torch.log(x**2) * torch.sin(x) + _reciprocals[x.shape]
