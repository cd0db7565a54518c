# expect: torch.tensor(...) of a result copies its values without their history
# A reader's answer: wraps the result in torch.tensor(...).
def build_f(x):
    return torch.tensor(torch.log(x**2) * torch.sin(x) + 1 / x)
