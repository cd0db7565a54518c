# expect: has dtype torch.float64, expected torch.float32
# 1/x written with a tensor of ones made in float64: for a float32 x, the whole result becomes float64.
def build_f(x):
    ones = torch.ones(x.shape, dtype=torch.float64)
    return torch.log(x**2) * torch.sin(x) + ones / x
