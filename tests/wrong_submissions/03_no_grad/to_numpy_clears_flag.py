# expect: detach() gives a tensor without history and leaves t as it is
# Switches the caller's tensor off for good instead of cutting a copy out of the graph.
def to_numpy(t):
    if t.is_leaf:
        t.requires_grad_(False)
    return t.detach().clone().numpy()
