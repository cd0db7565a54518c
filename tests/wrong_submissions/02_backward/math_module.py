# expect: Use torch.cos, which works elementwise
# math.cos and friends take one Python number, not a tensor.
def hand_derivative(x):
    import math
    return math.cos(x**2) * 2 * x * math.exp(-x) - math.sin(x**2) * math.exp(-x)
