# style: h from torch.nn.Tanh(), the loss written with torch.sum and a product
def grads_with_intermediate(x):
    leaf = x.detach().clone().requires_grad_(True)
    h = torch.nn.Tanh()(leaf)
    h.retain_grad()
    torch.sum(h * h * leaf).backward()
    return leaf.grad, h.grad
