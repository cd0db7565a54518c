# expect: has dtype torch.float32
# A new leaf that requires grad, but in PyTorch's default dtype instead of float64.
def make_leaf(data):
    return torch.as_tensor(data, dtype=torch.float32).detach().clone().requires_grad_(True)
