# style: a list or tensor alike through torch.tensor of a detached copy, then the flag
def make_leaf(data):
    if isinstance(data, torch.Tensor):
        values = data.detach().to(torch.float64, copy=True)
    else:
        values = torch.tensor(data, dtype=torch.float64)
    values.requires_grad = True
    return values
