# expect: has no grad_fn
# NumPy does the arithmetic, so autograd records nothing: no gradient can reach x.
def fix_inplace(x):
    import numpy as np
    y = 3 * np.tanh(2 * x.detach().numpy() + 1)
    y[:, 0] = 0
    return torch.from_numpy(y)
