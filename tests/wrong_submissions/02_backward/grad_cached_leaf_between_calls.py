# expect: keeps something from one call to the next
# A reader's answer: the leaf is made on the first call and kept in a global, so each later call
# evaluates f at the first call's point and adds into the .grad already there.
_leaf = {}


def grad_via_backward(f, x):
    if "xc" not in _leaf:
        _leaf["xc"] = x.detach().clone().requires_grad_(True)
    xc = _leaf["xc"]
    f(xc).backward()
    return xc.grad
