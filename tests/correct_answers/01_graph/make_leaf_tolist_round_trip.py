# style: a tensor turned back into Python numbers with tolist() (exact for every dtype but complex), then one torch.tensor call
def make_leaf(data):
    if isinstance(data, torch.Tensor):
        data = data.tolist()
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)
