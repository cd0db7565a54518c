# style: element by element with Python's math functions, written back into a tensor
import math


def hand_derivative(x):
    values = [math.exp(-v) * (2 * v * math.cos(v * v) - math.sin(v * v)) for v in x.reshape(-1).tolist()]
    return torch.tensor(values, dtype=x.dtype).reshape(x.shape)
