# expect: clone() of a tensor that requires grad is recorded
# A reader's answer: follows the previous message: converts first, then clone, no detach (still recorded).
def make_leaf(data):
    if isinstance(data, list):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    out = data.double().clone()
    if not out.requires_grad:
        out.requires_grad_()
    return out
