# expect: chain rule
def hand_derivative(x):
    return torch.cos(x**2) * torch.exp(-x) - torch.sin(x**2) * torch.exp(-x)
