# expect: has dtype torch.float32
# A float leaf that requires grad, but in PyTorch's default float dtype instead of float64.
def leaf_from_list(values):
    return torch.tensor(values, dtype=torch.float32, requires_grad=True)
