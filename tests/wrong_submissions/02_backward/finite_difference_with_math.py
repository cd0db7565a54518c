# expect: close to autograd's but not exact
# A central difference element by element with Python's math functions: no torch.sin at shifted
# points for the check to see, but only an estimate of the derivative.
import math


def hand_derivative(x):
    h = 1e-5
    f = lambda t: math.sin(t * t) * math.exp(-t)
    values = [(f(v + h) - f(v - h)) / (2 * h) for v in x.reshape(-1).tolist()]
    return torch.tensor(values, dtype=x.dtype).reshape(x.shape)
