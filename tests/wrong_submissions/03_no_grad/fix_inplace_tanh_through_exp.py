# expect: a formula through exp overflows for large ones
# tanh written out through exp, out of place: right for small x, NaN where exp overflows.
def fix_inplace(x):
    h = x * 2 + 1
    e = torch.exp(2 * h)
    y = (e - 1) / (e + 1) * 3
    y[:, 0] = 0
    return y
