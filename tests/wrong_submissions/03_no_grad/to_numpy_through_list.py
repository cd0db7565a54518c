# expect: Python floats (what .tolist() and .item() give) become float64
# Copies through Python lists, which NumPy reads back as float64.
import numpy as np


def to_numpy(t):
    return np.array(t.tolist())
