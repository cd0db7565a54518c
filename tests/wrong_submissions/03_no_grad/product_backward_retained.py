# expect: x.grad now holds a gradient the caller did not ask for
# retain_graph=True keeps the graph for the check, but the caller's x.grad is filled all the same.
def stop_gradient_product(x):
    z = x * (x**2).detach()
    z.backward(torch.ones_like(z), retain_graph=True)
    return z
