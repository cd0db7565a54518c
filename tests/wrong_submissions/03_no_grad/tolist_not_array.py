# expect: not a numpy.ndarray
def to_numpy(t):
    return t.detach().tolist()
