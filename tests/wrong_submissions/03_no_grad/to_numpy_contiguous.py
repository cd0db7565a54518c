# expect: shares memory with the tensor
# contiguous() copies only a tensor that is not contiguous already: most tensors still share memory.
def to_numpy(t):
    return t.detach().contiguous().numpy()
