# expect: your derivative is 2 times autograd's
# A reader's answer: the whole product rule counted twice (the generic words would speak of .grad adding up).
def hand_derivative(x):
    e = torch.exp(-x)
    return 2 * (2 * x * torch.cos(x**2) * e - torch.sin(x**2) * e)
