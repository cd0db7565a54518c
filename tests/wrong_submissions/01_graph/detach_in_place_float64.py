# expect: for a float64 leaf that requires grad, your code changed the tensor it was given
# torch.as_tensor hands a float64 tensor back as it is, so detach_() cuts the caller's own leaf loose.
def make_leaf(data):
    t = torch.as_tensor(data, dtype=torch.float64)
    t.detach_()
    return t.clone().requires_grad_()
