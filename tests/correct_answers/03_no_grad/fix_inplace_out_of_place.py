# style: every step out of place, the column set to zero by a mask
def fix_inplace(x):
    y = torch.tanh(x * 2 + 1) * 3
    mask = torch.ones_like(y)
    mask[:, 0] = 0
    return y * mask
