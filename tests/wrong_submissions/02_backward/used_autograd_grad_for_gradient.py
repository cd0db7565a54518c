# expect: don't call torch.autograd.grad
# Right numbers, wrong tool: the exercise asks for backward() and .grad.
def grad_via_backward(f, x):
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x)
    return g
