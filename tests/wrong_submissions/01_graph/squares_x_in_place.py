# expect: your code changed x in place (an operation ending in _, or +=, *=, ... on x)
# A reader's answer: squares x in place. PyTorch refuses (x is a leaf that requires grad); the advice for a
# parameter's update, no_grad(), is not taught yet here and would cut f's graph.
def build_f(x):
    sq = x.pow_(2)
    return torch.log(sq) * torch.sin(x) + 1 / x
