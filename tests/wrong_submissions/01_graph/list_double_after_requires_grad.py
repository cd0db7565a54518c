# expect: is not a leaf
# Float first so that it can require grad, float64 after: .double() is recorded, the result has a grad_fn.
def leaf_from_list(values):
    return torch.tensor(values, dtype=torch.float32, requires_grad=True).double()
