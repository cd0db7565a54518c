# expect: f works elementwise, so f(x) has x's shape
# x flattened first "so the operations see a vector": right for a 1-D x only.
def build_f(x):
    v = x.flatten()
    return torch.log(v**2) * torch.sin(v) + 1 / v
