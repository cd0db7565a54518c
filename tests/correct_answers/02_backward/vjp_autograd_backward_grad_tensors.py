# style: torch.autograd.backward with grad_tensors=[v], the function's spelling of gradient=
def vjp(f, x, v):
    leaf = x.detach().clone().requires_grad_(True)
    torch.autograd.backward([f(leaf)], grad_tensors=[v])
    return leaf.grad
