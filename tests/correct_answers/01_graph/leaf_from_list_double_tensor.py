# style: the legacy torch.DoubleTensor constructor (float64 by its name), then requires_grad_()
def leaf_from_list(values):
    return torch.DoubleTensor(values).requires_grad_()
