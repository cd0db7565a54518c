# expect: your function uses .data
# .data hides the change from the version counter: backward runs on the wrong saved value.
def fix_inplace(x):
    h = x * 2
    h += 1
    y = torch.tanh(h)
    y.data *= 3
    y.data[:, 0] = 0
    return y
