# expect: for a float64 tensor, your code changed the tensor it was given: its requires_grad
# requires_grad switched off on the caller's leaf so the conversion is not recorded, then "put back"
# to True: right for a leaf that required grad, wrong for one that did not.
def make_leaf(data):
    if not isinstance(data, torch.Tensor):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    if not data.is_leaf:
        return data.detach().to(torch.float64, copy=True).requires_grad_(True)
    if data.is_floating_point():
        data.requires_grad_(False)
    copy = data.to(torch.float64, copy=True)
    if data.is_floating_point():
        data.requires_grad_(True)
    return copy.requires_grad_(True)
