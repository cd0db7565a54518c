# expect: changed `x.requires_grad` on the tensor it was given
# expect: has dtype torch.float32, expected torch.float64
# A reader's answer: x.float() as the copy. For a float32 x it is x itself (no copy at all), for a
# float64 x a float32 copy: right for neither.
def grad_via_backward(f, x):
    xc = x.float().requires_grad_(True)
    f(xc).backward()
    return xc.grad
