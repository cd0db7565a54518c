# expect: keep data's shape
# Flattened "to be safe": the values are right, the shape is not.
def make_leaf(data):
    t = torch.as_tensor(data, dtype=torch.float64).detach()
    return t.reshape(-1).clone().requires_grad_(True)
