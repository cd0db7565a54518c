# expect: f works elementwise, so f(x) has x's shape
# Returns a scalar, as if backward() needed one here: f must be returned elementwise.
def build_f(x):
    return (torch.log(x**2) * torch.sin(x) + 1 / x).sum()
