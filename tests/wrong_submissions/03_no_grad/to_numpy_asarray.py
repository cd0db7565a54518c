# expect: shares memory with the tensor
# np.asarray makes no copy when the data is already an array it can view.
import numpy as np


def to_numpy(t):
    return np.asarray(t.detach())
