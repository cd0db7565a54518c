# expect: your function called backward()
# Right graph, but it also runs backward() itself, which the exercise says not to do.
def build_f(x):
    y = torch.log(x**2) * torch.sin(x) + 1 / x
    y.sum().backward(retain_graph=True)
    return y
