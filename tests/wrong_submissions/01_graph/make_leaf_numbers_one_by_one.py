# expect: only one element tensors can be converted
# Each item read as a Python float: right for lists and 1-D tensors, but an item of a 2-D tensor is a
# whole row, not one number.
def make_leaf(data):
    return torch.tensor([float(v) for v in data], dtype=torch.float64, requires_grad=True)
