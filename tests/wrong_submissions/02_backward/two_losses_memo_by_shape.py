# expect: handed back an old result
# A reader's answer: the results memoised by x's shape and dtype, "to skip the work when called again".
_memo = {}


def two_losses(x):
    key = (tuple(x.shape), x.dtype)
    if key not in _memo:
        xc = x.detach().clone().requires_grad_(True)
        h = torch.sin(xc) * xc
        h.sum().backward(retain_graph=True)
        g1 = xc.grad.clone()
        xc.grad = None
        (h**2).mean().backward()
        _memo[key] = (g1, xc.grad)
    return _memo[key]
