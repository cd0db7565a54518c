# expect: does not require grad
# The right float64 values, but requires_grad is never switched on.
def leaf_from_list(values):
    return torch.tensor(values, dtype=torch.float64)
