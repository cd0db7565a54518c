# style: no reset: the second gradient is what .grad holds after both backward() calls minus a clone of the first
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = xc * torch.sin(xc)
    loss1, loss2 = h.sum(), h.pow(2).mean()
    loss1.backward(retain_graph=True)
    first = xc.grad.clone()
    loss2.backward()
    return first, xc.grad - first
