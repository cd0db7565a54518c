# expect: the product rule for u * v is u' v + u v'
# Takes the derivative of a product to be the product of the derivatives.
def hand_derivative(x):
    return torch.cos(x**2) * 2 * x * (-torch.exp(-x))
