# expect: shares its memory with the tensor you were given
# as_tensor hands a float64 tensor back unchanged: no copy, and the caller's flag gets flipped.
def make_leaf(data):
    return torch.as_tensor(data, dtype=torch.float64).requires_grad_(True)
