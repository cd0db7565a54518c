# expect: the list was put inside another list ([values])
# The values wrapped in one more list, as a row: a tensor of shape (1, n), not (n,).
def leaf_from_list(values):
    return torch.tensor([values], dtype=torch.float64, requires_grad=True)
