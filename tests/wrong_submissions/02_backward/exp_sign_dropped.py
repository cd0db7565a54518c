# expect: the exp(-x) part has the wrong sign
# Derives exp(-x) as exp(-x), forgetting the chain rule's -1 from its inner function.
def hand_derivative(x):
    return torch.cos(x**2) * 2 * x * torch.exp(-x) + torch.sin(x**2) * torch.exp(-x)
