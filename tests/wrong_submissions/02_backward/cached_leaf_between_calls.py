# expect: Make the result depend only on the arguments of this call.
# A reader's answer: keeps the leaf between calls (cache), so .grad accumulates across calls.
_leaf = {}
def grad_via_backward(f, x):
    if "xc" not in _leaf:
        _leaf["xc"] = x.detach().clone().requires_grad_(True)
    xc = _leaf["xc"]
    f(xc).backward()
    return xc.grad
