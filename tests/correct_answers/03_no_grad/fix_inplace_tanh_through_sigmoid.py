# style: tanh written as 2 * sigmoid(2h) - 1, stable for any h, and the column zeroed by a cat
def fix_inplace(x):
    h = x * 2 + 1
    y = (2 * torch.sigmoid(2 * h) - 1) * 3
    return torch.cat([torch.zeros_like(y[:, :1]), y[:, 1:]], dim=1)
