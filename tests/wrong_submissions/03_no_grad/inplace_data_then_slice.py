# expect: your function uses .data, which the exercise rules out
# Hides the first in-place step behind .data; the second still changes tanh's saved output.
def fix_inplace(x):
    h = x * 2
    h += 1
    y = torch.tanh(h)
    y.data *= 3
    y[:, 0] = 0
    return y
