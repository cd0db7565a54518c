# style: the first gradient kept as the .grad tensor itself, then .grad set to None: the second backward() makes a new tensor and leaves the first alone
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    first = xc.grad
    xc.grad = None
    (h**2).mean().backward()
    return first, xc.grad
