# expect: a tensor was changed in place after autograd saved it
# h += 1 was harmless (nothing saved h); the steps on tanh's output are the ones to change.
def fix_inplace(x):
    h = x * 2 + 1
    y = torch.tanh(h)
    y *= 3
    y[:, 0] = 0
    return y
