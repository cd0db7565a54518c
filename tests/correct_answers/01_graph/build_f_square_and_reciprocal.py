# style: torch.square and torch.reciprocal, the product written with torch.mul
def build_f(x):
    return torch.mul(torch.log(torch.square(x)), torch.sin(x)) + torch.reciprocal(x)
