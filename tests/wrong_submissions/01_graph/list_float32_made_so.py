# expect: choose that dtype when torch.tensor makes the tensor from the list
# A reader's answer: float (float32) instead of float64.
def leaf_from_list(values):
    """A float64 leaf holding values, requiring grad."""
    return torch.tensor(values, dtype=torch.float, requires_grad=True)
