# style: the first gradient kept with copy.deepcopy, the reset with zero_()
import copy
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = copy.deepcopy(xc.grad)
    xc.grad.zero_()
    (h**2).mean().backward()
    return g1, xc.grad
