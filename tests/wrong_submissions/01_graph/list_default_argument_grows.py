# expect: gave a different result when it was called again with the same inputs
# A default list is made once, when the function is defined: each call adds its numbers to the same
# list, so the tensor holds the numbers of the calls before it too.
def leaf_from_list(values, numbers=[]):
    numbers += values
    return torch.tensor(numbers, dtype=torch.float64, requires_grad=True)
