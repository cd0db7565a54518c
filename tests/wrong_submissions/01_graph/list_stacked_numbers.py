# expect: for an empty list, your code raised RuntimeError
# One float64 tensor per number, stacked into one: right for every list but the empty one, which
# torch.stack refuses.
def leaf_from_list(values):
    numbers = [torch.tensor(v, dtype=torch.float64) for v in values]
    return torch.stack(numbers).requires_grad_(True)
