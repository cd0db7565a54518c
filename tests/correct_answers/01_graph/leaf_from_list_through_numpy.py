# style: a float64 NumPy array first, then torch.from_numpy (it shares the array's memory, a new array each call)
import numpy as np


def leaf_from_list(values):
    return torch.from_numpy(np.array(values, dtype=np.float64)).requires_grad_(True)
