# expect: your code changed the list it was given: its items
# The caller's list of ints turned into floats in place, before making the tensor.
def make_leaf(data):
    if isinstance(data, list):
        for i, v in enumerate(data):
            data[i] = float(v)
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    return data.detach().to(torch.float64, copy=True).requires_grad_(True)
