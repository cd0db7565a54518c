# expect: has the wrong sign everywhere: check each term's sign
# A reader's answer: both terms' signs flipped.
def hand_derivative(x):
    e = torch.exp(-x)
    return torch.sin(x**2) * e - 2 * x * torch.cos(x**2) * e
