# expect: for a transposed tensor (a view whose rows are columns of another) it raised
# view(-1) to copy the values flat, then back to t's shape: a transposed tensor cannot be viewed flat.
def to_numpy(t):
    return t.detach().view(-1).numpy().copy().reshape(t.shape)
