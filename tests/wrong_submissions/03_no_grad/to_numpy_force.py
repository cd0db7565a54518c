# expect: shares memory with the tensor
# numpy(force=True) detaches for you, but the array still shares the tensor's memory.
def to_numpy(t):
    return t.numpy(force=True)
