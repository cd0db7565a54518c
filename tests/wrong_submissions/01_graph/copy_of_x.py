# expect: but at a copy of it
# The lesson 2 habit of working on a copy: the graph ends at the copy, never at the caller's x.
def build_f(x):
    x = x.detach().clone().requires_grad_(True)
    return torch.log(x**2) * torch.sin(x) + 1 / x
