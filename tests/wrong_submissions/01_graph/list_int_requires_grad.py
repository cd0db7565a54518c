# expect: for a list of ints, your code raised RuntimeError
# No dtype: a list of ints becomes an int64 tensor, which cannot require grad.
def leaf_from_list(values):
    return torch.tensor(values, requires_grad=True)
