# expect: the gradient of f at x is wrong although f(x) is right
# The 1/x term is computed from x.detach(): the value is right but no gradient flows through it.
def build_f(x):
    return torch.log(x**2) * torch.sin(x) + 1 / x.detach()
