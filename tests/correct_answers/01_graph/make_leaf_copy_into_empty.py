# style: an empty float64 tensor of data's shape, copy_() of the detached data into it, the flag last
def make_leaf(data):
    source = data.detach() if isinstance(data, torch.Tensor) else torch.tensor(data, dtype=torch.float64)
    leaf = torch.empty(source.shape, dtype=torch.float64)
    leaf.copy_(source)
    return leaf.requires_grad_(True)
