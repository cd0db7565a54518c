# expect: this tensor is not part of any graph
# A reader's answer: h computed under no_grad(), "to compute it only once": no graph is recorded at all.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    with torch.no_grad():
        h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad = None
    (h**2).mean().backward()
    return g1, xc.grad
