# expect: contains NaN
# log(x**2) rewritten as 2 log(x): equal only for x > 0, NaN for negative x.
def build_f(x):
    return 2 * torch.log(x) * torch.sin(x) + 1 / x
