# expect: iteration over a 0-d tensor
# f computed one item at a time and stacked: right for a 1-D x (and row by row for a 2-D one), but a
# 0-d x has no items to go through.
def build_f(x):
    return torch.stack([torch.log(v**2) * torch.sin(v) + 1 / v for v in x])
