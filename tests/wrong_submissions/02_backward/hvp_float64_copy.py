# expect: changed `x.requires_grad` on the tensor it was given
# expect: has dtype torch.float64, expected torch.float32
# A reader's answer: x.double() "for an accurate Hessian": x itself for a float64 x, float64 results for a
# float32 x.
def hvp(f, x, v):
    xc = x.double().requires_grad_(True)
    (g,) = torch.autograd.grad(f(xc), xc, create_graph=True)
    (hv,) = torch.autograd.grad((g * v.double()).sum(), xc)
    return hv
