# expect: rounded to float32
# Made in PyTorch's default dtype first and converted afterwards: the floats lose digits.
def leaf_from_list(values):
    return torch.tensor(values).double().requires_grad_(True)
