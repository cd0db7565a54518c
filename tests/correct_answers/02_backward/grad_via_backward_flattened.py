# style: f called on x flattened to one dimension, the gradient reshaped back: the same points as x
def grad_via_backward(f, x):
    flat = x.detach().reshape(-1).clone().requires_grad_(True)
    f(flat).backward()
    return flat.grad.reshape(x.shape)
