# expect: as if v were all ones
# A reader's answer: backward() with no weights when y has one element (PyTorch allows it there), which
# drops v: right only for f of several outputs.
def vjp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    y = f(xc)
    if y.numel() == 1:
        y.backward()
    else:
        y.backward(gradient=v)
    return xc.grad
