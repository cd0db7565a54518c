# expect: v^T J for y =
# A student who copies the demo output: right on one input, wrong on fresh ones.
def vjp(f, x, v):
    return torch.tensor([2.0, 0.4, 0.06])
