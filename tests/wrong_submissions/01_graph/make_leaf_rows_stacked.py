# expect: iteration over a 0-d tensor
# A tensor copied row by row and stacked again: right for every tensor with rows, but a 0-d tensor
# (one number) has none.
def make_leaf(data):
    if isinstance(data, list):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    rows = [row.detach().to(torch.float64) for row in data]
    return torch.stack(rows).requires_grad_(True)
