# expect: changed `x.requires_grad` on the tensor it was given
# expect: has dtype torch.float64, expected torch.float32
# A reader's answer: x.double() "for precision". For a float64 x it is x itself, and the caller's x is
# made to require grad; for a float32 x the gradient comes back in float64.
def grad_via_backward(f, x):
    xc = x.double().requires_grad_(True)
    f(xc).backward()
    return xc.grad
