# expect: is not a leaf
# requires_grad first, dtype second: .double() is recorded, so the result has a grad_fn.
def make_leaf(data):
    return torch.tensor(data, requires_grad=True).double()
