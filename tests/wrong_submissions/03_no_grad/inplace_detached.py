# expect: has no grad_fn
# detach() makes the in-place steps legal by cutting the result off the graph.
def fix_inplace(x):
    h = x * 2
    h += 1
    y = torch.tanh(h).detach()
    y *= 3
    y[:, 0] = 0
    return y
