# style: .double() where it converts (a new tensor), .clone() where data is float64 already (double() would hand data back)
def make_leaf(data):
    if not isinstance(data, torch.Tensor):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    t = data.detach()
    t = t.clone() if t.dtype == torch.float64 else t.double()
    return t.requires_grad_(True)
