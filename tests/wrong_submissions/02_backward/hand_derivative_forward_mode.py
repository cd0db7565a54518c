# expect: without autograd
# A reader's answer: forward-mode autograd with torch.func.jvp and a tangent of ones.
def hand_derivative(x):
    f = lambda t: torch.sin(t**2) * torch.exp(-t)
    return torch.func.jvp(f, (x,), (torch.ones_like(x),))[1]
