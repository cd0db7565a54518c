# expect: does not require grad
# A new float64 leaf with the right values, but requires_grad is never switched on.
def make_leaf(data):
    return torch.as_tensor(data, dtype=torch.float64).detach().clone()
