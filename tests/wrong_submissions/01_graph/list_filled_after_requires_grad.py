# expect: your code changed a tensor that already requires grad in place
# A tensor of zeros that requires grad, then filled number by number: autograd refuses to change a leaf
# it records in place.
def leaf_from_list(values):
    leaf = torch.zeros(len(values), dtype=torch.float64, requires_grad=True)
    for i, v in enumerate(values):
        leaf[i] = v
    return leaf
