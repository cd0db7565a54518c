# style: cos(x**2) written as sin(x**2 + pi/2): torch.sin at points other than x**2, yet no finite difference
import math


def hand_derivative(x):
    return torch.exp(-x) * (2 * x * torch.sin(x**2 + math.pi / 2) - torch.sin(x**2))
