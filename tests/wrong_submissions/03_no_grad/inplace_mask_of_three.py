# expect: a size your code fixes instead of taking it from x
# The lesson's example has 3 columns: a mask of 3 values fits that x only, and raises for a wider one.
def fix_inplace(x):
    return torch.tanh(x * 2 + 1) * 3 * torch.tensor([0.0, 1.0, 1.0], dtype=x.dtype)
