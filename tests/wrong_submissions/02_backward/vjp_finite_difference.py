# expect: evaluates f at points other than x
def vjp(f, x, v):
    eps = 1e-6
    out = torch.zeros_like(x)
    for i in range(x.numel()):
        step = torch.zeros_like(x)
        step[i] = eps
        out[i] = ((f(x + step) - f(x - step)) / (2 * eps) * v).sum()
    return out
