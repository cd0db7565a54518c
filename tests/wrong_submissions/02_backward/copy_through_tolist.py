# expect: expected torch.float64: keep the input's dtype
# The copy is rebuilt from Python numbers: torch.tensor() makes float32 of them, whatever x was.
def grad_via_backward(f, x):
    x = torch.tensor(x.tolist(), requires_grad=True)
    f(x).backward()
    return x.grad
