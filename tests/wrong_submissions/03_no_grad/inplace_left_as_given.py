# expect: a tensor was changed in place after autograd saved it
# The given function unchanged: tanh saved y, and y *= 3 and y[:, 0] = 0 both change it.
def fix_inplace(x):
    h = x * 2
    h += 1
    y = torch.tanh(h)
    y *= 3
    y[:, 0] = 0
    return y
