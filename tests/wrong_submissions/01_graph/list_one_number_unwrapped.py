# expect: makes a tensor of shape (1,), as torch.tensor([2.5]) does
# A single number is "helpfully" taken out of its list, which gives a 0-d tensor, not one of shape (1,).
def leaf_from_list(values):
    data = values[0] if len(values) == 1 else values
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)
