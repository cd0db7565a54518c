# expect: for a bfloat16 tensor, your code raised TypeError
# A copy through NumPy: right for every dtype NumPy has, but NumPy has no bfloat16.
import numpy as np


def make_leaf(data):
    if isinstance(data, torch.Tensor):
        data = data.detach().numpy()
    return torch.tensor(np.array(data, dtype=np.float64), requires_grad=True)
