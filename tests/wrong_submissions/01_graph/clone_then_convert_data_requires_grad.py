# expect: data itself requires grad here
# A reader's answer: clone() without detach(): the copy is recorded (result).
def make_leaf(data):
    if isinstance(data, list):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    out = data.clone().double()
    if not out.requires_grad:
        out.requires_grad_()
    return out
