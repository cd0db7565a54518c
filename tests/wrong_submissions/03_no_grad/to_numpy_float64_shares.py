# expect: shares memory with the tensor
# .to(torch.float64) copies every dtype but float64, which it returns as it is: a view for float64.
def to_numpy(t):
    return t.detach().to(torch.float64).numpy().astype(t.detach().numpy().dtype, copy=False)
