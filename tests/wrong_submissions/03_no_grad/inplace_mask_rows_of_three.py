# expect: a size your code fixes instead of taking it from x
# Takes the number of rows from y, but still writes the mask's 3 columns by hand.
def fix_inplace(x):
    y = torch.tanh(x * 2 + 1) * 3
    return y * torch.tensor([[0.0, 1.0, 1.0]] * y.shape[0], dtype=x.dtype)
