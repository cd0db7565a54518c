# expect: rounded to float32
# Makes the tensor in PyTorch's default dtype first and converts afterwards: float values lose digits.
def make_leaf(data):
    return torch.tensor(data).double().detach().clone().requires_grad_(True)
