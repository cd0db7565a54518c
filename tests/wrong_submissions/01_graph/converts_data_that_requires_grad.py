# expect: data itself requires grad here, so converting it (.double(), .to()) is recorded: detach() it first
# Converts a copy of data with .to(): fine for plain data, recorded when data already requires grad,
# where "convert the dtype first" would not help (it was converted first).
def make_leaf(data):
    if isinstance(data, torch.Tensor):
        x = data.to(torch.float64, copy=True)
    else:
        x = torch.tensor(data, dtype=torch.float64)
    return x if x.requires_grad else x.requires_grad_()
