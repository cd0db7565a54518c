# expect: your derivative is all zeros, and f'(x) is not
# A reader's answer, a placeholder left in: zeros of x's shape (the generic words would speak of a graph cut).
def hand_derivative(x):
    return torch.zeros_like(x)
