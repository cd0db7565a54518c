# expect: the step that zeroes it was not recorded
# Zeroes column 0 under no_grad(), "since it needs no gradient": backward() never learns of it.
def fix_inplace(x):
    y = torch.tanh(x * 2 + 1) * 3
    with torch.no_grad():
        y[:, 0] = 0
    return y
