# expect: handed back an old result
# A memo keyed on the shapes of x and v, as a reader's memo keyed on id(f) behaves once Python reuses
# a freed function's id: a later call gets an earlier v^T J back, although it passes gradient=v.
_memo = {}


def vjp(f, x, v):
    key = (tuple(x.shape), tuple(v.shape))
    if key not in _memo:
        x = x.detach().clone().requires_grad_(True)
        f(x).backward(gradient=v)
        _memo[key] = x.grad
    return _memo[key]
