# expect: for a 0-d tensor (a single number, such as a loss) it raised
# Copies with [:] as for a list: a 0-d array has no dimension to slice.
def to_numpy(t):
    return t.detach().numpy()[:].copy()
