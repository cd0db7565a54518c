# expect: reused an earlier call's x**2
# A reader's answer: the detached factor cached by shape, so a later x of the same shape gets the
# first x's square.
_cache = {}


def stop_gradient_product(x):
    k = tuple(x.shape)
    if k not in _cache:
        _cache[k] = (x**2).detach()
    return x * _cache[k]
