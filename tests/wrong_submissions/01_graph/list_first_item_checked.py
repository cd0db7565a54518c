# expect: for an empty list, your code raised IndexError
# expect: An empty list is a list of numbers too
# A reader's answer: ints are made floats first, decided by looking at the first item, which an empty
# list does not have.
def leaf_from_list(values):
    if isinstance(values[0], int):
        values = [float(v) for v in values]
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)
