# style: np.array() copies the array that .numpy() views
import numpy as np


def to_numpy(t):
    return np.array(t.detach().numpy())
