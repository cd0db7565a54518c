# expect: without autograd
# A reader's answer: torch.func.grad, vectorised with vmap: autograd again, under another name.
def hand_derivative(x):
    f = lambda t: torch.sin(t**2) * torch.exp(-t)
    return torch.func.vmap(torch.func.grad(f))(x.reshape(-1)).reshape(x.shape)
