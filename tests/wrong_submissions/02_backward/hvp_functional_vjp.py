# expect: not with PyTorch's vjp()
# A reader's answer: torch.autograd.functional.vjp of the gradient function, a ready-made v^T H.
def hvp(f, x, v):
    from torch.autograd.functional import jacobian, vjp
    return vjp(lambda t: jacobian(f, t, create_graph=True), x, v)[1]
