# expect: changed the tensor it was given
# The same trap from the other side: requires_grad_() on what as_tensor returned flips the caller's flag.
def make_leaf(data):
    return torch.as_tensor(data, dtype=torch.float64).requires_grad_(True).detach().clone().requires_grad_(True)
