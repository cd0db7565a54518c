# expect: your tensor has the values rounded to float32
# Integers cannot require grad, so they are made float first: .float() is float32, which rounds an
# int64 past 2**24 (16777217 becomes 16777216) before float64 can keep it.
def make_leaf(data):
    if isinstance(data, list):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    t = data.detach()
    if not t.is_floating_point():
        t = t.float()
    return t.to(torch.float64, copy=True).requires_grad_(True)
