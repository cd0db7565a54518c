# expect: your code changed the tensor it was given: its dtype
# "No copy needed": the caller's tensor converted to float64 through .data, which autograd does not
# see, then copied. The caller's integer tensor is float64 afterwards.
def make_leaf(data):
    if isinstance(data, list):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    data.data = data.data.to(torch.float64)
    return data.detach().clone().requires_grad_(True)
