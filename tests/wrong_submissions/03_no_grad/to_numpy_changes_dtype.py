# expect: keep the tensor's dtype
# .float() gives a float32 copy: float16 and float64 tensors come back in the wrong dtype.
def to_numpy(t):
    return t.detach().float().clone().numpy()
