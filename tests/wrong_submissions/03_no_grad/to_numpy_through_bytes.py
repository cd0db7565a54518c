# expect: keep the tensor's shape
# A copy through raw bytes: the values and dtype survive, the shape does not.
import numpy as np


def to_numpy(t):
    array = t.detach().numpy()
    return np.frombuffer(array.tobytes(), dtype=array.dtype)
