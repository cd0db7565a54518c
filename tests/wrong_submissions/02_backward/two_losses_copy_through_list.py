# expect: has dtype torch.float32, expected torch.float64
# A reader's answer: the copy rebuilt from Python numbers, which torch.tensor makes float32 whatever x was.
def two_losses(x):
    xc = torch.tensor(x.tolist(), requires_grad=True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad = None
    (h**2).mean().backward()
    return g1, xc.grad
