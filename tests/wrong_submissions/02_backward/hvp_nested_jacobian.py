# expect: not with PyTorch's jacobian()
# A reader's answer: the Hessian from torch.autograd.functional.jacobian applied twice, then H @ v: PyTorch's
# helpers build H for you, and the exercise asks for H v without H.
def hvp(f, x, v):
    from torch.autograd.functional import jacobian
    H = jacobian(lambda t: jacobian(f, t, create_graph=True), x)
    return H @ v
