# expect: for a list mixing ints and floats, your tensor has the values rounded to float32
# A list of ints goes through an integer tensor, exact, then float64. Deciding that from the first item
# sends a list that starts with an int but holds floats through float32, which rounds them.
def leaf_from_list(values):
    if values and isinstance(values[0], int):
        return torch.tensor(values).double().requires_grad_(True)
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)
