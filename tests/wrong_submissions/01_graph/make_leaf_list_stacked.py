# expect: for an empty list, your code raised RuntimeError
# A list becomes one tensor per number, stacked: torch.stack refuses an empty list.
def make_leaf(data):
    if isinstance(data, list):
        return torch.stack([torch.tensor(v, dtype=torch.float64) for v in data]).requires_grad_(True)
    return data.detach().to(torch.float64, copy=True).requires_grad_(True)
