# style: torch.as_tensor with the dtype chosen, then requires_grad_() on the leaf it made
def leaf_from_list(values):
    leaf = torch.as_tensor(values, dtype=torch.float64)
    return leaf.requires_grad_()
