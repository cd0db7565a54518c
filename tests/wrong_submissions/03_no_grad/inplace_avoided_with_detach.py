# expect: your function calls detach(), which the exercise rules out
# 3 * y written as y + 2 * y.detach(): the values are right, but two thirds of the path are cut.
def fix_inplace(x):
    h = x * 2
    h += 1
    y = torch.tanh(h)
    y = y + 2 * y.detach()
    y = y.clone()
    y[:, 0] = 0
    return y
