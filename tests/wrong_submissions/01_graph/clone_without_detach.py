# expect: clone() of a tensor that requires grad is recorded
# A copy with clone() alone: for data that requires grad, the clone is a result (CloneBackward0).
def make_leaf(data):
    x = torch.as_tensor(data, dtype=torch.float64).clone()
    if not x.requires_grad:
        x.requires_grad_(True)
    return x
