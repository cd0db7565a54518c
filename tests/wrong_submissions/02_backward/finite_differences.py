# expect: finite difference
# A central difference in float64 matches to about 1e-10: right numbers, but nothing was derived.
def hand_derivative(x):
    h = 1e-5
    f = lambda t: torch.sin(t**2) * torch.exp(-t)
    return (f(x + h) - f(x - h)) / (2 * h)
