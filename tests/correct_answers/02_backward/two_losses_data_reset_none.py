# style: the first gradient read through .data, then .grad set to None: .data shares memory, but nothing writes into it afterwards
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.data
    xc.grad = None
    torch.mean(h**2).backward()
    return (g1, xc.grad)
