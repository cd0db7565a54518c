# expect: the result differs
# Out of place, but the values are not squash_in_place's: the last column is zeroed, not the first.
def fix_inplace(x):
    y = torch.tanh(x * 2 + 1) * 3
    y = y.clone()
    y[:, -1] = 0
    return y
