# style: a float64 tensor of zeros filled item by item while nothing requires grad, the flag switched on last
def leaf_from_list(values):
    leaf = torch.zeros(len(values), dtype=torch.float64)
    for i, v in enumerate(values):
        leaf[i] = v
    leaf.requires_grad = True
    return leaf
