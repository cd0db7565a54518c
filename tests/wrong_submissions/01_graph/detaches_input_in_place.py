# expect: changed the tensor it was given
# detach_() cuts the caller's own tensor out of its graph: the copy is fine, the input is not kept.
def make_leaf(data):
    if isinstance(data, torch.Tensor):
        data.detach_()
    return torch.as_tensor(data, dtype=torch.float64).clone().requires_grad_(True)
