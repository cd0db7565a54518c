# expect: let torch.tensor make the tensor with its dtype and requires_grad
# A reader's answer: multiplies by 1.0 to 'make float' after requiring grad (result).
def leaf_from_list(values):
    """A float64 leaf holding values, requiring grad."""
    t = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    return t * 1.0
