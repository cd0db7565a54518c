# expect: your function calls detach(), which the exercise rules out
# A reader's answer: zeroes the column through detach() (shares the version counter; also breaks the no-detach rule).
def fix_inplace(x):
    y = torch.tanh(x * 2 + 1) * 3
    y.detach()[:, 0] = 0
    return y
