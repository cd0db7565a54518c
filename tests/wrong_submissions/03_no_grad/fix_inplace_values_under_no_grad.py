# expect: none of them reaches x through a recorded step
# The values computed where autograd does not record, then joined to x by a step whose gradient
# is zero: backward() runs, and the gradient in x is all zeros.
def fix_inplace(x):
    with torch.no_grad():
        y = torch.tanh(x * 2 + 1) * 3
        y[:, 0] = 0
    return x * 0 + y
