# style: in-place operations on its own intermediate results (never on x): log_() and add_() are recorded too
def build_f(x):
    f = x**2
    f.log_()
    f = f * torch.sin(x)
    return f.add_(1 / x)
