# style: torch.where on the column index instead of any in-place step
def fix_inplace(x):
    y = 3 * torch.tanh(2 * x + 1)
    first = torch.arange(x.shape[1]) == 0
    return torch.where(first, torch.zeros_like(y), y)
