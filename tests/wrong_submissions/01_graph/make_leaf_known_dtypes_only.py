# expect: for an int32 tensor, your code raised RuntimeError
# Written for the dtypes the reader had met (int64, float32, float64): an int32 tensor is copied as it
# is, and an integer tensor cannot require grad.
def make_leaf(data):
    if isinstance(data, list):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    if data.dtype in (torch.int64, torch.float32, torch.float64):
        return data.detach().to(torch.float64, copy=True).requires_grad_(True)
    return data.detach().clone().requires_grad_(True)
