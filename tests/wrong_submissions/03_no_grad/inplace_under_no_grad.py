# expect: a tensor was changed in place after autograd saved it
# no_grad() stops the recording, not the version counter: tanh's saved output still moved on.
def fix_inplace(x):
    h = x * 2
    h += 1
    y = torch.tanh(h)
    with torch.no_grad():
        y *= 3
        y[:, 0] = 0
    return y
